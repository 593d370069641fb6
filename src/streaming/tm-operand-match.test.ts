import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingressQueueOf } from './classifier.ts';
import type { QueueGranularity } from './classifier.ts';
import { coversQueue, coversStream, designationForQueue, designationKey, designationOfPacket, matchQueues, specificity } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';

const E = 21;
const d = (wildcard: number, mask: number, cos = 0x43, streamID = 7, peer = E): TmDesignation => ({ peer, cos, streamID, wildcard, mask });

/** Ingress queues of destination 21 (and one of destination 6) under a granularity. */
function queues(g: QueueGranularity) {
  const streams = [[E, 0x40, 7], [E, 0x43, 7], [E, 0x43, 8], [E, 0x44, 1], [E, 0x80, 7], [6, 0x43, 7]] as const;
  const seen = new Map<string, ReturnType<typeof ingressQueueOf>>();
  for (const [destinationID, cos, streamID] of streams) {
    const q = ingressQueueOf({ destinationID, cos, streamID }, g);
    seen.set(q.key, q);
  }
  return [...seen.values()].map((q) => ({ ...q, peer: q.destinationID }));
}

test('Part 10 §4.3.1: a specific stream <DestID><CoS><StreamID> wc=000 m=0x00 addresses that stream\'s queue only', () => {
  assert.deepEqual(matchQueues(d(0, 0), 'ingress', queues({ mode: 'stream' })), ['21/67/7']);
  assert.equal(coversStream(d(0, 0), 'ingress', E, 0x43, 8), false);
});

test('Part 10 §3.4.5 protocol rule 2: a stream operand addresses the class queue the ingress classified the stream into', () => {
  assert.deepEqual(matchQueues(d(0, 0), 'ingress', queues({ mode: 'class', cosBits: 8 })), ['21/67']);
  assert.deepEqual(matchQueues(d(0, 0), 'ingress', queues({ mode: 'class', cosBits: 2 })), ['21/1'], 'cos 0x43 is bin 0b01 of 4');
});

test('Part 10 §4.3.1: all streams in a class <DestID><CoS><xx> wc=001 m=0x00', () => {
  assert.deepEqual(matchQueues(d(1, 0), 'ingress', queues({ mode: 'stream' })), ['21/67/7', '21/67/8']);
  assert.deepEqual(matchQueues(d(1, 0, 0x43, 999), 'ingress', queues({ mode: 'stream' })), ['21/67/7', '21/67/8'], 'the streamID is a don\'t care');
});

test('Part 10 §4.3 Table 4-3: a class group with mask 0x03 covers 4 classes (cos bits 6-7 are don\'t cares)', () => {
  // cos 0x43 with mask 0x03 covers 0x40..0x43; 0x44 and 0x80 are outside.
  assert.deepEqual(matchQueues(d(1, 0x03), 'ingress', queues({ mode: 'stream' })), ['21/64/7', '21/67/7', '21/67/8']);
  assert.deepEqual(matchQueues(d(1, 0x03, 0x40), 'ingress', queues({ mode: 'class', cosBits: 8 })), ['21/64', '21/67']);
  assert.deepEqual(matchQueues(d(1, 0x07), 'ingress', queues({ mode: 'class', cosBits: 8 })), ['21/64', '21/67', '21/68'], 'mask 0x07: 8 classes 0x40..0x47');
  assert.deepEqual(matchQueues(d(1, 0x7f), 'ingress', queues({ mode: 'class', cosBits: 1 })), ['21/0'], 'mask 0x7f: the lower half of the classes');
});

test('Part 10 §4.3.1: all traffic to a destination <DestID><xx><xx> wc=011, mask a don\'t care', () => {
  assert.deepEqual(matchQueues(d(0b011, 0x5a, 0, 0), 'ingress', queues({ mode: 'stream' })), ['21/128/7', '21/64/7', '21/67/7', '21/67/8', '21/68/1']);
});

test('Part 10 §4.3.1, Table 4-3: all traffic from this source wc=111 applies to all destinations at the ingress', () => {
  assert.equal(matchQueues(d(0b111, 0x12), 'ingress', queues({ mode: 'class', cosBits: 8 })).length, 5);
  assert.equal(coversQueue(d(0b111, 0), 'egress', { peer: 9, cos: 0, cosFreeBits: 8, streamID: null }), false, 'at the egress: only the sending source');
  assert.equal(coversQueue(d(0b111, 0), 'egress', { peer: E, cos: 0, cosFreeBits: 8, streamID: null }), true);
});

test('Part 10 §4.3.1 "No other combinations of these fields is permitted": invalid operands address no queue', () => {
  for (const [wc, mask] of [[0b000, 0x01], [0b010, 0], [0b100, 0], [0b101, 0], [0b110, 0], [0b001, 0x05], [0b001, 0x80]] as const) {
    assert.deepEqual(matchQueues(d(wc, mask), 'ingress', queues({ mode: 'stream' })), [], `wc ${wc} mask ${mask}`);
    assert.equal(designationKey(d(wc, mask)), undefined);
    assert.equal(specificity(d(wc, mask)), Infinity);
  }
});

test('Part 10 §4.3.1: designation keys leave the don\'t-care fields out', () => {
  assert.equal(designationKey(d(0, 0)), '21|stream|67|7');
  assert.equal(designationKey(d(1, 0, 0x43, 1)), designationKey(d(1, 0, 0x43, 2)));
  assert.equal(designationKey(d(1, 0x03, 0x43)), '21|group|64|3');
  assert.equal(designationKey(d(1, 0x03, 0x41)), designationKey(d(1, 0x03, 0x42)));
  assert.equal(designationKey(d(0b011, 0x11, 1, 2)), '21|destination');
  assert.equal(designationKey(d(0b111, 0x11, 1, 2)), '21|source');
  assert.ok(specificity(d(0, 0)) < specificity(d(1, 0)) && specificity(d(1, 0)) < specificity(d(1, 3)) && specificity(d(1, 3)) < specificity(d(3, 0)));
});

test('Part 10 §3.4.5 protocol rule 1: a queue\'s own designation fills the don\'t cares with its data\'s values', () => {
  const sample = { cos: 0x43, streamID: 7 };
  const of = (g: QueueGranularity) => {
    const q = ingressQueueOf({ destinationID: E, ...sample }, g);
    return designationForQueue({ ...q, peer: q.destinationID }, sample);
  };
  assert.deepEqual(of({ mode: 'stream' }), { peer: E, cos: 0x43, streamID: 7, wildcard: 0, mask: 0 });
  assert.deepEqual(of({ mode: 'class', cosBits: 8 }), { peer: E, cos: 0x43, streamID: 7, wildcard: 1, mask: 0 });
  assert.deepEqual(of({ mode: 'class', cosBits: 2 }), { peer: E, cos: 0x43, streamID: 7, wildcard: 1, mask: 0x3f });
  assert.deepEqual(of({ mode: 'class', cosBits: 0 }), { peer: E, cos: 0x43, streamID: 7, wildcard: 0b011, mask: 0 });
  assert.deepEqual(designationOfPacket({ sourceID: 4, cos: 1, streamID: 2, wildcard: 1, mask: 3 }), { peer: 4, cos: 1, streamID: 2, wildcard: 1, mask: 3 });
});
