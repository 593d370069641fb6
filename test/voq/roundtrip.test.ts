/**
 * VoQ backpressure end to end: a `VoqGenerator` (downstream device) fills the stype2 of the CS48
 * symbols of one link, the bytes cross the link and a `VoqReceiver` (upstream device) applies them
 * (test/support/voq-link.ts). Once every due symbol has been sent, the congestion the receiver
 * holds for each participating port must equal the status the generator reports for it (Table
 * 5-4), in both stype2 formats and with VC linking off and on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GEN_LINK, VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

/** Seed boundaries (Table 3-3: group 0 = ports 0–5, 0b11111 = base 0xBA = 186, last port 191). */
const SEED_BOUNDARIES = [0, 5, 6, 186, 191] as const;

/** Part 12 §4.2 d: N = 13 − G ports per group; the boundaries of the first two and of the last group the device can name. */
function part12Boundaries(g: number): { ports: number; boundaries: number[] } {
  const n = 13 - g;
  const ports = Math.min(256, n * 2 ** g);
  const last = Math.floor((ports - 1) / n) * n;
  return { ports, boundaries: [...new Set([0, n - 1, n, last, ports - 1])].filter((p) => p < ports).sort((a, b) => a - b) };
}

/**
 * Congests each boundary port alone, then all of them, then clears them, checking after every
 * flush that the receiver holds exactly what the generator reports. With linking each port is
 * congested in a VC of its own, so the VC_Status VCID must pick the right queues.
 */
function walkBoundaries(c: VoqLinkConfig, boundaries: readonly number[]): void {
  const l = new VoqLink(c);
  const vcs = l.vcList();
  const vcOf = (i: number): number => (l.linking ? (vcs[i % vcs.length] as number) : 0);
  boundaries.forEach((p, i) => {
    l.congest(p, vcOf(i));
    assert.ok(l.flush() >= 1, `port ${p}: a symbol is due (§4.2 e)`);
    assert.deepEqual(l.disagreements(), [], `port ${p} congested`);
    assert.deepEqual(l.held(vcOf(i)), [p], `port ${p} is the one port held congested in vc${vcOf(i)}`);
    l.clear(p, vcOf(i));
    l.flush();
    assert.deepEqual(l.disagreements(), [], `port ${p} cleared`);
    assert.deepEqual(l.held(vcOf(i)), []);
  });
  boundaries.forEach((p, i) => { l.congest(p, vcOf(i)); });
  l.flush();
  assert.deepEqual(l.disagreements(), []);
  const all = vcs.flatMap((vc) => l.held(vc));
  assert.deepEqual([...new Set(all)].sort((a, b) => a - b), [...boundaries]);
  boundaries.forEach((p, i) => { l.clear(p, vcOf(i)); });
  l.flush();
  assert.deepEqual(l.disagreements(), []);
  assert.deepEqual(vcs.flatMap((vc) => l.held(vc)), []);
}

test('VoQ Backpressure §4.2 rule e + §4.3 e (round trip): seed format, group boundaries 0, 5, 6, 186, 191, VC linking off and on', () => {
  walkBoundaries({ ports: 192 }, SEED_BOUNDARIES);
  walkBoundaries({ ports: 192, perVcStaging: true, vcs: 2 }, SEED_BOUNDARIES);
  walkBoundaries({ ports: 192, linking: true, vcs: 8 }, SEED_BOUNDARIES);
  walkBoundaries({ ports: 192, linking: true, vcs: 1 }, SEED_BOUNDARIES);
  // Part 6 Table 3-12: 2 active VCs are VC1 and VC5, 4 are VC1, VC3, VC5 and VC7.
  walkBoundaries({ ports: 192, linking: true, vcs: 2 }, SEED_BOUNDARIES);
  walkBoundaries({ ports: 192, linking: true, vcs: 4 }, SEED_BOUNDARIES);
});

test('VoQ Backpressure §4.2 rule d + Table 3-2/3-3 (round trip): each boundary port travels as group ⌊p/6⌋, offset p mod 6', () => {
  const l = new VoqLink({ ports: 192 });
  for (const p of SEED_BOUNDARIES) {
    l.congest(p);
    l.flush();
    const m = l.delivered[l.delivered.length - 1];
    assert.equal(m?.group, Math.floor(p / 6));
    assert.equal(m.portStatus, 1 << p % 6);
    assert.deepEqual(l.rx.congestedPorts(0), [p]);
    l.clear(p);
    l.flush();
  }
});

test('Part 12 §4.2 d, e + §4.3 e (round trip): TX = RX Port Group Size 0–6 at the group boundaries, VC linking off and on', () => {
  for (let g = 0; g <= 6; g++) {
    const { ports, boundaries } = part12Boundaries(g);
    const base = { format: 'part12-rev4.1', groupSize: g, ports } as const;
    walkBoundaries(base, boundaries);
    walkBoundaries({ ...base, linking: true, vcs: g % 2 === 0 ? 8 : 1 }, boundaries);
  }
});

test('Part 12 §2.1, §3.1 Table 3-2 (round trip, decision): with group size 1 group 0x1 starts at port 12 (group × status bits, not × group size); port 12 is its status bit 11, port 23 its bit 0', () => {
  const l = new VoqLink({ format: 'part12-rev4.1', groupSize: 1, ports: 24 });
  l.congest(12);
  l.congest(23);
  l.flush();
  // "The lowest numbered port in the Port Status vector occupies the least significant bit."
  assert.deepEqual(l.delivered.map((m) => [m.group, m.portStatus]), [[1, 0b100000000001]]);
  assert.deepEqual(l.rx.congestedPorts(0), [12, 23]);
});

test('VoQ Backpressure §2.4, §3.2 (round trip): without linking a port congested in any VC stops its queues in every VC', () => {
  const l = new VoqLink({ ports: 12, perVcStaging: true, vcs: 8 });
  l.congest(7, 5);
  l.flush();
  for (const vc of l.vcList()) assert.deepEqual(l.held(vc), [7], `vc${vc}`);
  l.congest(7, 2);
  l.clear(7, 5);
  assert.equal(l.flush(), 0, 'still congested in VC2: no status change');
  l.clear(7, 2);
  l.flush();
  for (const vc of l.vcList()) assert.deepEqual(l.held(vc), [], `vc${vc}`);
});

test('VoQ Backpressure §3.2 (round trip): with linking only the VC named by the Status / VC_Status carrier is flow-controlled', () => {
  const l = new VoqLink({ ports: 12, linking: true, vcs: 8 });
  l.congest(3, 0);
  l.congest(4, 8);
  l.flush();
  assert.deepEqual(l.delivered.map((m) => m.vc), [0, 8]);
  assert.deepEqual(l.held(0), [3]);
  assert.deepEqual(l.held(8), [4]);
  for (const vc of [1, 2, 3, 4, 5, 6, 7]) assert.deepEqual(l.held(vc), [], `vc${vc}`);
  assert.deepEqual(l.disagreements(), []);
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 01 (round trip): a non-participating port\'s forced status reaches the upstream device only with another message of its group', () => {
  const l = new VoqLink({ ports: 12 });
  l.genInput({ kind: 'port-control', port: 2, settings: { participation: false, portXoff: true } });
  assert.equal(l.flush(), 0, 'bit 9 = 0: "will not cause symbol to be generated"');
  assert.deepEqual(l.rx.congestedPorts(0), []);
  l.congest(1);
  l.flush();
  // "Port Status is always 0b1": port 2 rides in the message port 1's change caused.
  assert.deepEqual(l.rx.congestedPorts(0), [1, 2]);
  assert.deepEqual(l.disagreements(), []);
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 11 (round trip): Port XOFF on a participating port reaches the upstream device and clears with it', () => {
  const l = new VoqLink({ ports: 12 });
  l.genInput({ kind: 'port-control', port: 9, settings: { portXoff: true } });
  l.flush();
  assert.deepEqual(l.rx.congestedPorts(0), [9]);
  l.congest(9);
  assert.equal(l.flush(), 0, 'already reported congested: "only if the state of the port changed"');
  l.genInput({ kind: 'port-control', port: 9, settings: { portXoff: false } });
  assert.equal(l.flush(), 0, 'the port itself is congested: its state did not change');
  l.clear(9);
  l.flush();
  assert.deepEqual(l.rx.congestedPorts(0), []);
});

test('Part 12 Table 5-3 bits 26–31 (round trip): changing TX and RX Port Group Size while generation is cleared keeps agreement', () => {
  const l = new VoqLink({ format: 'part12-rev4.1', groupSize: 0, ports: 40 });
  l.congest(3);
  l.congest(12);
  l.flush();
  assert.deepEqual(l.rx.congestedPorts(0), [3, 12]);
  // TX: "shall be changed only when Enable VoQ Symbol Generation is cleared"; RX: "only when the
  // link partner's Enable VoQ Symbol Generation field is cleared".
  l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: false } });
  l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { txPortGroupSize: 2 } });
  l.rxInput({ kind: 'control', port: 0, rxPortGroupSize: 2 });
  l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: true } });
  l.congest(33);
  l.flush();
  // 11 ports per group now: port 3 is group 0 offset 3, port 12 group 1 offset 1, port 33 group 3
  // offset 0; the re-enabled link restates every group, the all-clear group 2 too.
  assert.deepEqual(l.delivered.slice(1).map((m) => [m.group, m.portStatus, m.reason]), [[0, 0b1000, 'restart'], [1, 0b10, 'restart'], [2, 0, 'restart'], [3, 0b1, 'restart']]);
  assert.deepEqual(l.rx.congestedPorts(0), [3, 12, 33]);
  assert.equal(l.rx.counters().reservedCmd, 0);
});
