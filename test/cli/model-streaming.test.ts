import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { toHex } from '../../src/wire/hex.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import { abort, bytes, cont, end, start } from '../support/type9-segments.ts';
import { riodp } from '../support/spawn.ts';
import { jsonLines, lines } from './output.ts';
import { serialHex, type9Tm } from './vectors.ts';
import { tempFiles, trace } from './traces.ts';

/**
 * `riodp model segmenter` and `riodp model reassembler` end to end (docs/model.md, Part 10
 * §3.2.5): the CLI run from source on traces, as a testbench would run it.
 */

const file = tempFiles('riodp-model-streaming-');

type Line = Record<string, unknown>;


/** The output lines between the header and the end line. */
function body(stdout: string): Line[] {
  return jsonLines(stdout).slice(1, -1);
}

function counting(n: number, from = 0): string {
  return toHex(Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff));
}

/** Segment header of the traces: source 0x10 → destination 0x20, flow 0A (VC0, prio 0, CRF 0, Part 6 Table 6-7). */
const H = { sourceID: 0x10, destinationID: 0x20, cos: 5 } as const;

interface Sent {
  readonly segment: string;
  readonly payload: string;
  readonly length?: number;
  readonly odd: number;
  readonly pad: number;
}

function sends(out: readonly Line[]): { packet: Sent & Line; hex: string }[] {
  return out.filter((o) => o['kind'] === 'send') as unknown as { packet: Sent & Line; hex: string }[];
}

/** The segmenter's send lines for one PDU of `n` bytes at `mtu`, pulled segment by segment. */
function segmentRun(n: number, mtu: number): Line[] {
  const pulls = Array.from({ length: Math.ceil(n / mtu) }, (_, i) => ({ t: 10 + i, kind: 'pull', destinationID: 0x20, flowID: '0A' }));
  const r = riodp(['model', 'segmenter', '--config', file(`sourceID: 16\nmtu: ${mtu}\n`)], trace([
    { t: 0, kind: 'pdu', destinationID: 0x20, cos: 5, streamID: 0x1234, flowID: '0A', payload: counting(n) },
    ...pulls,
  ]));
  assert.equal(r.status, 0, r.stderr);
  return jsonLines(r.stdout);
}

test('riodp model --help lists segmenter and reassembler; --describe lists their config fields and input kinds', async () => {
  const help = riodp(['model', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^ {2}segmenter {2,}data streaming source/m);
  assert.match(help.stdout, /^ {2}reassembler {2,}data streaming destination/m);
  const seg = riodp(['model', 'segmenter', '--describe']);
  assert.match(seg.stdout, /^ {2}mtu +integer 32\.\.256, multiple of 4; default 256$/m);
  assert.match(seg.stdout, /^ {2}pdu +destinationID, cos, streamID, flowID, payload \(hex\), id\?: /m);
  const re = riodp(['model', 'reassembler', '--describe']);
  assert.match(re.stdout, /^ {2}idleTimeout +integer ns > 0 \| null; default null$/m);
  assert.match(re.stdout, /^ {2}set-mtu +mtu /m);
  for (const name of ['segmenter', 'reassembler'] as const) assert.equal((await loadEngine(name)).name, name);
});

test('Part 10 §3.2.5 segmentation rules 3–8 (segmenter): a 100-byte PDU at MTU 32 is start, two continuations and a 4-byte end with length 100', () => {
  const out = segmentRun(100, 32);
  assert.deepEqual(out[0], { schema: 'riodp-model/1', engine: 'segmenter', config: { sourceID: 16, tt: 0, mtu: 32, maxPdu: {}, defaultMaxPdu: 65536, crfSupported: true } });
  const s = sends(out);
  assert.deepEqual(s.map((x) => [x.packet.segment, x.packet.payload.length / 2]), [['start', 32], ['continuation', 32], ['continuation', 32], ['end', 4]]);
  assert.equal(s.map((x) => x.packet.payload).join(''), counting(100), 'rule 2: "Segments are filled with bytes from the PDU in order"');
  const last = s[3];
  assert.ok(last);
  assert.equal(last.packet.length, 100);
  // Table 4-2: 4 bytes are 2 half-words, even, no pad byte.
  assert.deepEqual([last.packet.odd, last.packet.pad], [0, 0]);
  assert.deepEqual(out.filter((o) => o['kind'] === 'pdu-started' || o['kind'] === 'pdu-done').map((o) => [o['t'], o['kind']]), [[10, 'pdu-started'], [13, 'pdu-done']]);
});

test('docs/model.md Output: a send line\'s packet is what riodp decode --json prints for its hex', () => {
  const s = sends(segmentRun(85, 32));
  const decoded = lines(riodp(['decode', '--json'], s.map((x) => x.hex).join('\n')).stdout).map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(s.map((x) => x.packet), decoded);
  // Table 4-2: the 21-byte end segment is padded to 22 bytes, 11 half-words: O = 1, P = 1 (Figure 3-4's case).
  assert.deepEqual([s[2]?.packet.payload.length, s[2]?.packet.odd, s[2]?.packet.pad, s[2]?.packet.length], [42, 1, 1, 85]);
});

test('Part 10 §3.2.5 segmentation rule 9 (segmenter): a PDU aborted after its start ends with an end segment with no payload and length 0', () => {
  const r = riodp(['model', 'segmenter', '--config', file('sourceID: 16\nmtu: 32\n')], trace([
    { t: 0, kind: 'pdu', destinationID: 0x20, cos: 5, streamID: 1, flowID: '0A', payload: counting(40), id: 'b' },
    { t: 1, kind: 'pull', destinationID: 0x20, flowID: '0A' },
    { t: 2, kind: 'abort', destinationID: 0x20, flowID: '0A' },
    { t: 3, kind: 'pull', destinationID: 0x20, flowID: '0A', max: 5 },
    { t: 4, kind: 'abort', destinationID: 0x20, flowID: '0A' },
  ]));
  assert.equal(r.status, 0);
  const out = body(r.stdout);
  assert.deepEqual(out.find((o) => o['kind'] === 'aborted'), { t: 2, kind: 'aborted', started: true, bytesSent: 32, seq: 1, id: 'b', destinationID: 0x20, flowID: '0A', cos: 5, streamID: 1, length: 40 });
  const last = sends(out).at(-1);
  assert.deepEqual([last?.packet.segment, last?.packet.length, last?.packet.payload, last?.packet.odd, last?.packet.pad], ['abort', 0, '', 0, 0]);
  assert.equal(out.filter((o) => o['t'] === 3).length, 1, 'the abort segment ends the PDU: max 5 finds nothing more');
  assert.deepEqual(out.at(-1), { t: 4, kind: 'event', name: 'nothing-to-abort', destinationID: 0x20, flowID: '0A' });
});

test('Part 9 §2.4.5 rule 1 (segmenter gate): a stopped flow answers pulls idle flow-stopped, a started PDU pauses mid-PDU and goes on from its next segment once restarted; a bad stopped is a bad line', () => {
  const r = riodp(['model', 'segmenter', '--config', file('sourceID: 16\nmtu: 32\n')], trace([
    { t: 0, kind: 'pdu', destinationID: 0x20, cos: 0, streamID: 1, flowID: '0A', payload: counting(70) },
    { t: 1, kind: 'pull', destinationID: 0x20, flowID: '0A' },
    { t: 2, kind: 'gate', destinationID: 0x20, flowID: '0A', stopped: true },
    { t: 3, kind: 'pull', destinationID: 0x20, flowID: '0A' },
    { t: 4, kind: 'pull-any' },
    { t: 5, kind: 'gate', destinationID: 0x20, flowID: '0A', stopped: 'yes' },
    { t: 6, kind: 'gate', destinationID: 0x20, flowID: '0A', stopped: false },
    { t: 7, kind: 'pull', destinationID: 0x20, flowID: '0A', max: 5 },
  ]));
  assert.equal(r.status, 1, 'a bad line makes the exit status 1; the run goes on');
  const out = body(r.stdout);
  assert.deepEqual(out.filter((o) => o['kind'] === 'idle').map((o) => [o['t'], o['reason']]), [[3, 'flow-stopped'], [4, 'flow-stopped']]);
  assert.match(r.stderr, /line 6: expected true or false \(stopped\)/);
  const s = sends(out);
  assert.deepEqual(s.map((x) => [x.packet.segment, x.packet.payload.length / 2]), [['start', 32], ['continuation', 32], ['end', 6]]);
  assert.equal(s.map((x) => x.packet.payload).join(''), counting(70), 'the PDU goes on from its next segment, whole');
});

test('Part 10 §3.2.4, §5.4.3 Table 5-5 MaxPDU and §4.2 Table 4-1 length (segmenter): the engine\'s refusals reach the output', () => {
  const r = riodp(['model', 'segmenter', '--config', file('maxPdu: {"32": 64}\n')], trace([
    { t: 0, kind: 'pdu', destinationID: 32, cos: 0, streamID: 0, flowID: '0B', payload: counting(65) },
    { t: 1, kind: 'pdu', destinationID: 33, cos: 0, streamID: 0, flowID: '0B', payload: '', id: 7 },
    { t: 2, kind: 'set-max-pdu', destinationID: 32, maxPdu: 65 },
    { t: 3, kind: 'pdu', destinationID: 32, cos: 0, streamID: 0, flowID: '0B', payload: counting(65) },
  ]));
  assert.equal(r.status, 0);
  assert.deepEqual(body(r.stdout).map((o) => [o['kind'], o['reason'] ?? o['length']]), [['refused', 'above-max-pdu'], ['refused', 'empty-pdu'], ['queued', 65]]);
  assert.equal(body(r.stdout)[0]?.['clause'], 'Part 10 §3.2.4, §5.4.3 Table 5-5 MaxPDU');
  assert.equal(body(r.stdout)[1]?.['id'], 7);
});

test('docs/model.md bad lines (segmenter): fields out of their Table 4-1 / Part 3 ranges name their path; the run goes on', () => {
  const r = riodp(['model', 'segmenter'], trace([
    { t: 0, kind: 'pdu', destinationID: 32, cos: 256, streamID: 1, flowID: '0A', payload: '00' },
    { t: 0, kind: 'pdu', destinationID: 300, cos: 1, streamID: 1, flowID: '0A', payload: '00' },
    { t: 0, kind: 'pdu', destinationID: 3, cos: 1, streamID: 65536, flowID: '0A', payload: '00' },
    { t: 0, kind: 'pdu', destinationID: 3, cos: 1, streamID: 1, flowID: '0A', payload: '0g' },
    { t: 0, kind: 'pull', destinationID: 3, flowID: '0A', max: 0 },
    { t: 0, kind: 'flush' },
    { t: 0, kind: 'abort', destinationID: 3, flowID: '0A', id: 1.5 },
    // Separators are tolerated in a payload as in packets (docs/model.md Packets).
    { t: 1, kind: 'pdu', destinationID: 3, cos: 1, streamID: 1, flowID: '0A', payload: '0x00_01:02 03', id: 'p' },
    { t: 1, kind: 'abort', destinationID: 3, flowID: '0A', id: 'p' },
    { t: 5, kind: 'pull-any' },
  ]));
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 1: expected an integer 0..255 (cos)',
    'riodp: line 2: expected a device ID 0..255 (tt 0) (destinationID)',
    'riodp: line 3: expected an integer 0..65535 (streamID)',
    "riodp: line 4: expected the PDU payload as a hex string: 'g' is not a hex digit at byte 0 (payload)",
    'riodp: line 5: expected an integer >= 1 (max)',
    'riodp: line 6: expected one of pdu, pull, pull-any, abort, set-max-pdu, gate, set-mtu, query (kind)',
    'riodp: line 7: expected a string or an integer (id)',
  ]);
  const good = body(r.stdout).filter((o) => o['kind'] !== 'error');
  assert.deepEqual(good.map((o) => [o['kind'], o['length'], o['started']]), [['queued', 4, undefined], ['aborted', 4, false], ['idle', undefined, undefined]]);
  assert.deepEqual(good.at(-1), { t: 5, kind: 'idle', reason: 'empty' });
});

test('docs/model.md config errors (segmenter, reassembler): exit 2, one line per bad field with its path', () => {
  const seg = riodp(['model', 'segmenter', '--config', file('mtu: 30\nmaxPdu: {"300": 10, "5": 0}\ndefaultMaxPdu: 0\nsourceID: 256\nwatermark: 1\n')], '');
  assert.equal(seg.status, 2);
  assert.equal(seg.stdout, '');
  assert.deepEqual(lines(seg.stderr), [
    'riodp: config.mtu: expected an MTU in bytes, a multiple of 4 from 32 to 256',
    'riodp: config.maxPdu.5: expected an integer 1..65536',
    'riodp: config.defaultMaxPdu: expected an integer 1..65536',
    'riodp: config.watermark: unknown field',
    'riodp: config.sourceID: expected a device ID 0..255 (tt 0)',
    'riodp: config.maxPdu.300: expected a device ID 0..255 (tt 0) as the key',
  ]);
  const re = riodp(['model', 'reassembler', '--config', file('mtu: 257\nsegSupport: 70000\nidleTimeout: 0\nvcCount: 3\ndestinationInContext: yes please\n')], '');
  assert.equal(re.status, 2);
  assert.deepEqual(lines(re.stderr), [
    'riodp: config.mtu: expected an MTU in bytes, a multiple of 4 from 32 to 256',
    'riodp: config.segSupport: expected an integer 0..65536',
    'riodp: config.destinationInContext: expected true or false',
    'riodp: config.idleTimeout: expected an integer >= 1',
    'riodp: config.vcCount: expected one of 0, 1, 2, 4, 8',
  ]);
  const ok = riodp(['model', 'reassembler'], '');
  assert.deepEqual(jsonLines(ok.stdout)[0], { schema: 'riodp-model/1', engine: 'reassembler', config: { mtu: 256, segSupport: 0, destinationInContext: false, idleTimeout: null, vcCount: 0, crfSupported: true } });
});

test('Part 10 §3.2.5 reassembly rules 1, 2, 6, 7 (reassembler): the segmenter\'s segments, hex or decode --json, give back the PDU with its VSID and flow', () => {
  for (const [n, mtu] of [[100, 32], [301, 128]] as const) {
    const s = sends(segmentRun(n, mtu));
    const cfg = file(`mtu: ${mtu}\n`);
    const asHex = riodp(['model', 'reassembler', '--config', cfg], trace(s.map((x, i) => ({ t: i, kind: 'packet', packet: x.hex }))));
    const asJson = riodp(['model', 'reassembler', '--config', cfg], trace(s.map((x, i) => ({ t: i, kind: 'packet', packet: x.packet }))));
    assert.equal(asHex.status, 0, asHex.stderr);
    assert.equal(asHex.stdout, asJson.stdout, 'docs/model.md Packets: both forms reach the engine as the same packet');
    assert.deepEqual(body(asHex.stdout), [{
      t: s.length - 1, kind: 'pdu', context: 'Dev8/src16/vc0/prio0/crf0', vsid: { sourceID: 16, destinationID: 32, cos: 5, streamID: 0x1234 },
      tt: 0, flowID: '0A', channel: 0, segments: s.length, length: n, payload: counting(n),
    }]);
  }
});

test('Part 10 §3.2.5 reassembly rules 7 and 8 (reassembler): a lost continuation is a length mismatch; a continuation on a closed context is defective', () => {
  const pdu = bytes(100, 3);
  const r = riodp(['model', 'reassembler', '--config', file('mtu: 32\n')], trace([
    { t: 0, kind: 'packet', packet: serialHex(start(pdu.subarray(0, 32), 9, H)) },
    { t: 1, kind: 'packet', packet: serialHex(cont(pdu.subarray(32, 64), H)) },
    { t: 3, kind: 'packet', packet: serialHex(end(pdu.subarray(96), 100, H)) },
    { t: 4, kind: 'packet', packet: serialHex(cont(pdu.subarray(64, 96), H)) },
    { t: 5, kind: 'packet', packet: serialHex(abort(H)) },
  ]));
  assert.equal(r.status, 0);
  const defects = body(r.stdout).map((o) => [o['t'], o['rule'], o['error'], o['errorBit'], o['received'], o['length']]);
  assert.deepEqual(defects, [
    [3, 7, 'DATA_STREAMING_PDU_LENGTH_ERROR', 14, 68, 100],
    [4, 8, 'MISSING_DATA_STREAMING_CONTEXT', 10, 32, undefined],
    [5, 8, 'MISSING_DATA_STREAMING_CONTEXT', 10, 0, undefined],
  ]);
});

test('Part 10 §3.2.5 reassembly rule 4 (reassembler): a start that is not an MTU of Table 5-6 is a bad line unless --lenient, which lets rule 4 find it', () => {
  const short = serialHex(start(bytes(28), 9, H));
  const long = serialHex(start(bytes(64), 9, H));
  const strict = riodp(['model', 'reassembler', '--config', file('mtu: 32\n')], trace([{ t: 0, kind: 'packet', packet: short }, { t: 1, kind: 'packet', packet: long }]));
  assert.equal(strict.status, 1);
  assert.deepEqual(lines(strict.stderr), ['riodp: line 1: 28 bytes is not an MTU (a multiple of 4 from 32 to 256), Part 10 §3.2.5, byte 8 (packet.payload)']);
  // A 64-byte start is a valid MTU on the wire but not this destination's: rule 4.
  assert.deepEqual(body(strict.stdout).map((o) => [o['kind'], o['rule'], o['error']]), [['error', undefined, undefined], ['event', 4, 'LONG_DATA_STREAMING_SEGMENT']]);
  const lenient = riodp(['model', 'reassembler', '--lenient', '--config', file('mtu: 32\n')], trace([{ t: 0, kind: 'packet', packet: short }]));
  assert.equal(lenient.status, 0, lenient.stderr);
  assert.deepEqual(body(lenient.stdout).map((o) => [o['rule'], o['error'], o['payloadLength']]), [[4, 'SHORT_DATA_STREAMING_SEGMENT', 28]]);
});

test('docs/model.md Packets (reassembler): the packet must be Type 9; TM packets are not data; set-mtu takes an MTU', () => {
  const r = riodp(['model', 'reassembler'], trace([
    { t: 0, kind: 'packet', packet: serialHex(makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0C', soc: 0 })) },
    { t: 1, kind: 'packet', packet: { ftype: 7 } },
    { t: 2, kind: 'packet', packet: serialHex(type9Tm) },
    { t: 3, kind: 'set-mtu', mtu: 33 },
    { t: 4, kind: 'set-mtu', mtu: 64 },
    { t: 5, kind: 'query' },
  ]));
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 1: expected a Type 9 packet, not ftype 7 (packet.ftype)',
    'riodp: line 2: expected a Type 9 packet (ftype 9) (packet.ftype)',
    'riodp: line 4: expected an MTU in bytes, a multiple of 4 from 32 to 256 (mtu)',
  ]);
  const out = body(r.stdout).filter((o) => o['kind'] !== 'error');
  assert.deepEqual(out[0], { t: 2, kind: 'event', name: 'not-data', segment: 'tm', sourceID: 21, destinationID: 6 });
  assert.equal((out[1]?.['state'] as { mtu: number }).mtu, 64);
});

test('Part 10 §3.2.5 lost packet time-out (reassembler): --until fires the idle timer of an open context, which discards its PDU', () => {
  const r = riodp(['model', 'reassembler', '--config', file('mtu: 32\nidleTimeout: 1000\n'), '--until', '5000'], trace([
    { t: 0, kind: 'packet', packet: serialHex(start(bytes(32), 9, H)) },
    { t: 600, kind: 'packet', packet: serialHex(cont(bytes(32), H)) },
    { t: 700, kind: 'query' },
  ]));
  assert.equal(r.status, 0, r.stderr);
  const out = jsonLines(r.stdout);
  const key = 'Dev8/src16/vc0/prio0/crf0';
  const state = out.find((o) => o['kind'] === 'state') as { state: { openContexts: { received: number }[]; timers: unknown } };
  assert.deepEqual([state.state.openContexts[0]?.received, state.state.timers], [64, [{ name: `idle:${key}`, at: 1000 }]]);
  // The timer is armed once per PDU; an expiry that finds a later segment re-arms for the rest of the time.
  assert.deepEqual(out.filter((o) => o['kind'] === 'timer' || o['kind'] === 'expired' || o['kind'] === 'event').map((o) => [o['t'], o['kind'], o['at'] ?? o['name']]), [
    [0, 'timer', 1000],
    [1000, 'expired', `idle:${key}`],
    [1000, 'timer', 1600],
    [1600, 'expired', `idle:${key}`],
    [1600, 'event', 'idle-timeout'],
  ]);
  assert.deepEqual(out.at(-1)?.['pending'], []);
});

test('Part 10 §5.5.1 Table 5-6 MTU (segmenter): set-mtu changes the MTU of the PDUs that start afterwards; the PDU already started finishes with its own; a set-mtu that is not an MTU is a bad line', () => {
  const r = riodp(['model', 'segmenter', '--config', file('sourceID: 16\nmtu: 64\n')], trace([
    { t: 0, kind: 'pdu', destinationID: 0x20, cos: 5, streamID: 7, flowID: '0A', payload: counting(100), id: 'a' },
    { t: 1, kind: 'pull', destinationID: 0x20, flowID: '0A' },
    { t: 2, kind: 'set-mtu', mtu: 32 },
    { t: 3, kind: 'set-mtu', mtu: 258 },
    { t: 4, kind: 'pdu', destinationID: 0x20, cos: 5, streamID: 7, flowID: '0A', payload: counting(40), id: 'b' },
    { t: 5, kind: 'pull', destinationID: 0x20, flowID: '0A', max: 3 },
  ]));
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), ['riodp: line 4: expected an MTU in bytes, a multiple of 4 from 32 to 256 (mtu)']);
  const out = body(r.stdout);
  assert.deepEqual(out.filter((o) => o['kind'] === 'pdu-started').map((o) => [o['id'], o['mtu']]), [['a', 64], ['b', 32]]);
  assert.deepEqual(sends(out).map((s) => s.packet.payload.length / 2), [64, 36, 32, 8]);
});
