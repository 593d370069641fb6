/**
 * The dissector on live captures of riodp TCP links (docs/net-framing.md), with the real tshark:
 * link frames cut into TCP segments anywhere (inside a length field, across several segments),
 * on a port of the riodp.tcp_ports preference and on another port found by the HELLO heuristic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { writePcapng } from '../../src/wire/index.ts';
import { KIND, cs48Arb, cs64SymbolArb, draw, record, serialPacketArb } from './records.ts';
import { sameValue } from './compare.ts';
import { SEED_PREFS, tsharkPath } from './run.ts';
import { reference } from './reference.ts';
import { dissect, scratch } from './tshark.ts';
import { LINKTYPE_ETHERNET, tcpConnection } from './tcp.ts';

const HELLO = Uint8Array.of(0x00, 0x06, 0x10, 0x52, 0x49, 0x4f, 0x44, 0x01);
const CLOSE = Uint8Array.of(0x00, 0x05, 0x11, 0x00, 0x62, 0x79, 0x65);

/** A link's frames: HELLO, packets and symbols, CLOSE. */
function linkFrames(salt: number): Uint8Array[] {
  const body = [
    ...[7, 8, 9, 10, 11, 13].flatMap((ftype) => draw(serialPacketArb(ftype, 6), 30, salt + ftype).map((b) => record(KIND.packet, b))),
    ...draw(cs48Arb, 40, salt + 20).map((b) => record(KIND.cs48, b)),
    ...draw(cs64SymbolArb, 40, salt + 21).map((b) => record(KIND.cs64, b)),
  ];
  // Interleaved, as a link carries them.
  const mixed = draw(fc.shuffledSubarray(body, { minLength: body.length, maxLength: body.length }), 1, salt + 22)[0] ?? body;
  return [HELLO, ...mixed, CLOSE];
}

/** Cut points: mostly short segments, so that frames and their length fields split; the first keeps HELLO whole. */
function cuts(length: number, salt: number): number[] {
  const sizes = draw(fc.integer({ min: 1, max: 120 }), length, salt);
  const out: number[] = [HELLO.length + 3];
  for (let i = 0, at = out[0] as number; at < length; i++) out.push((at += sizes[i % sizes.length] as number));
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** riodp's fields of `frames`, merged in order (a TCP frame may hold several link frames). */
function expected(frames: readonly Uint8Array[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const f of frames) {
    for (const [name, values] of reference(f, SEED_PREFS).fields) out.set(name, [...(out.get(name) ?? []), ...values]);
  }
  return out;
}

test('riodp link §2, docs/pcapng.md "Wireshark dissector": link frames split over TCP segments anywhere are reassembled, on a riodp.tcp_ports port (4000) and on another port by the HELLO heuristic, every field as riodp decodes it', async () => {
  const tshark = tsharkPath();
  const a = linkFrames(600);
  const b = linkFrames(700);
  const sa = concat(a);
  const sb = concat(b);
  const packets = [...tcpConnection(51000, 4000, sa, cuts(sa.length, 601)), ...tcpConnection(51001, 47123, sb, cuts(sb.length, 701))];
  const dir = scratch();
  try {
    const file = join(dir.dir, 'link.pcapng');
    writeFileSync(file, writePcapng({
      interfaces: [{ name: 'lo', linkType: LINKTYPE_ETHERNET }],
      packets: packets.map((data, i) => ({ interfaceId: 0, timestamp: BigInt(i) * 1000n, data })),
    }));
    const frames = await dissect(tshark, file);
    const shown = new Map<string, string[]>();
    for (const f of frames) for (const [name, values] of f) shown.set(name, [...(shown.get(name) ?? []), ...values]);
    const want = expected([...a, ...b]);
    assert.equal(shown.get('riodp.kind')?.length, a.length + b.length, 'every link frame decoded once');
    for (const [name, values] of want) {
      const got = shown.get(name) ?? [];
      assert.equal(got.length, values.length, name);
      values.forEach((v, i) => {
        assert.ok(sameValue(v, got[i] as string), `${name}[${i}]: riodp ${JSON.stringify(v)}, tshark ${got[i]}`);
      });
    }
    assert.equal(shown.has('riodp.expert.malformed') || shown.has('riodp.expert.crc'), false);
  } finally {
    dir.done();
  }
});
