import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drain, end, feed, send, wire } from '../../test/support/type11-link.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { Type11Capture } from './type11-capture.ts';
import type { CaptureOutput } from './type11-capture.ts';

/** The Type 11 packets node `from` sends for `bytes` to node `to`'s mailbox, as a link carries them. */
function packets(from: number, to: number, mailbox: number, bytes: Uint8Array): Type11Packet[] {
  const e = end(from);
  feed(e, send(to, mailbox, bytes), 0);
  return drain(e, 0).map((p) => wire(p) as Type11Packet);
}

const octets = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
const messages = (out: CaptureOutput[]) => out.flatMap((o) => (o.kind === 'message' ? [o] : []));

test('Part 2 §3.3.2, §2.4.2: segments of multi-segment messages to two destinations, interleaved and out of order, come out as each destination gets them', () => {
  const a = packets(1, 5, 0, octets(600, 1)); // 3 segments of 256
  const b = packets(1, 6, 0, octets(520, 2)); // 3 segments, the same letter and mbox as a's but to another node
  assert.deepEqual([a.length, b.length, a[0]?.letter], [3, 3, b[0]?.letter]);
  const capture = new Type11Capture();
  const order = [a[2], b[1], a[0], b[0], b[2], a[1]] as Type11Packet[];
  const out = order.flatMap((p, i) => capture.packet(p, i + 1));
  assert.deepEqual(out.map((o) => (o.kind === 'message' ? `${o.sourceID}>${o.destinationID} mb${o.mailbox} ${o.bytes.length}` : o.text)), ['1>6 mb0 520', '1>5 mb0 600']);
  const [toSix, toFive] = messages(out);
  assert.deepEqual([...(toFive?.bytes ?? [])], [...octets(600, 1)]);
  assert.deepEqual([...(toSix?.bytes ?? [])], [...octets(520, 2)]);
  assert.deepEqual(capture.unfinished(), []);
});

test('Part 2 Table 4-4: a single-packet message comes out at once, with its mailbox xmbox‖mbox; a repeated segment is stored once', () => {
  const [p] = packets(2, 9, 23, octets(40, 3));
  assert.ok(p !== undefined && p.msglen === 0);
  const capture = new Type11Capture();
  const [m] = messages(capture.packet(p, 1));
  assert.deepEqual([m?.sourceID, m?.destinationID, m?.mailbox, m?.bytes.length, m?.tt], [2, 9, 23, 40, 1]);
  const [s0, s1] = packets(2, 9, 1, octets(300, 4));
  assert.ok(s0 !== undefined && s1 !== undefined);
  assert.deepEqual(capture.packet(s0, 2), []);
  // Decision T12: the same segment again is no problem and no second copy.
  assert.deepEqual(capture.packet(s0, 3), []);
  assert.equal(messages(capture.packet(s1, 4))[0]?.bytes.length, 304);
});

test('Part 2 §3.3.2 lost segment: a message still incomplete at the end is reported at its first segment, with the segments it has', () => {
  const [s0, , s2] = packets(1, 5, 2, octets(700, 5));
  const capture = new Type11Capture();
  capture.packet(s2 as Type11Packet, 4);
  capture.packet(s0 as Type11Packet, 9);
  assert.deepEqual(capture.unfinished(), [{
    at: 4,
    clause: 'Part 2 §3.3.2',
    text: 'the message from 1 to 5, letter 0, mailbox 2 has 2 of its 3 segments (msgseg 0, 2) at the end of the input: 448 octets dropped (lost segment)',
  }]);
});

test('Part 2 §3.3.2 (decision T13), Table 4-4: a letter reused by a new message before the old one completed, and a segment no receiver could place, are problems naming what is lost', () => {
  const [old0] = packets(1, 5, 0, octets(600, 6));
  const [new0] = packets(1, 5, 0, octets(400, 7));
  const capture = new Type11Capture();
  capture.packet(old0 as Type11Packet, 1);
  assert.deepEqual(capture.packet(new0 as Type11Packet, 2), [{
    kind: 'problem', clause: 'Part 2 §3.3.2',
    text: 'segment from 1 to 5, letter 0, mailbox 0 belongs to a new message under the letter of one not complete; the 256 octets of the old one collected so far are dropped',
  }]);
  // A payload that is not whole double-words (Part 2 §3.3.2 "always multiples of doubleword quantities").
  const [s] = packets(3, 5, 7, octets(16, 8));
  const odd = { ...(s as Type11Packet), payload: octets(12, 9) };
  const [problem] = capture.packet(odd, 3);
  assert.ok(problem?.kind === 'problem' && problem.text.startsWith('segment from 3 to 5, letter 0, mailbox 7 cannot be placed: '), JSON.stringify(problem));
});
