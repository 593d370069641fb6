import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Classifier, flowPacketFields, ingressQueueOf } from './classifier.ts';
import type { StreamTarget } from './classifier.ts';

const VIDEO: StreamTarget = { destinationID: 0x21, cos: 0x40, streamID: 7, flowID: '0C' };
const AUDIO: StreamTarget = { destinationID: 0x21, cos: 0x43, streamID: 9, flowID: '0E' };
const BULK: StreamTarget = { destinationID: 0x06, cos: 0x80, streamID: 1, flowID: '0A' };

test('Part 10 §2.5: the rule table maps an application key to its target, first matching rule wins', () => {
  const c = new Classifier({
    rules: [
      { match: { app: 'video', port: 1 }, target: VIDEO },
      { match: { app: 'video' }, target: AUDIO },
    ],
  });
  assert.deepEqual(c.classify({ app: 'video', port: 1, extra: true }), VIDEO);
  assert.deepEqual(c.classify({ app: 'video', port: 2 }), AUDIO, 'exact field match: port 2 is not port 1');
  assert.equal(c.classify({ app: 'voice' }), undefined, 'no rule and no default: unclassified');
  assert.equal(c.classify({ port: 1 }), undefined, 'a missing field does not match');
});

test('Part 10 §2.5: a key no rule matches takes the default target; {} matches every key', () => {
  const c = new Classifier({ rules: [{ match: { app: 'video' }, target: VIDEO }], default: BULK });
  assert.deepEqual(c.classify({ app: 'x' }), BULK);
  const all = new Classifier({ rules: [{ match: {}, target: AUDIO }], default: BULK });
  assert.deepEqual(all.classify({}), AUDIO);
  assert.deepEqual(all.targets(), [AUDIO, BULK]);
});

test('Part 10 §3.3: by default ingress queues are destination ID + cos', () => {
  const c = new Classifier();
  assert.deepEqual(c.granularity, { mode: 'class', cosBits: 8 });
  assert.deepEqual(c.queueOf(VIDEO), { key: '33/64', destinationID: 0x21, cos: 0x40, cosFreeBits: 0, streamID: null });
  assert.equal(c.queueOf({ ...VIDEO, streamID: 99 }).key, '33/64', 'every stream of the class shares the queue');
});

test('Part 10 §3.2.2: per-stream queues are destination ID + cos + streamID', () => {
  const q = ingressQueueOf(VIDEO, { mode: 'stream' });
  assert.deepEqual(q, { key: '33/64/7', destinationID: 0x21, cos: 0x40, cosFreeBits: 0, streamID: 7 });
});

test('Part 10 §3.3: with 2^k bins the queue uses the k most significant cos bits', () => {
  const g = { mode: 'class', cosBits: 2 } as const;
  // cos 0x40 = 0b0100_0000 and 0x7f = 0b0111_1111 share bits 0-1 (0b01): bin 1, lowest cos 0x40.
  assert.deepEqual(ingressQueueOf({ destinationID: 5, cos: 0x7f, streamID: 0 }, g), { key: '5/1', destinationID: 5, cos: 0x40, cosFreeBits: 6, streamID: null });
  assert.equal(ingressQueueOf({ destinationID: 5, cos: 0x80, streamID: 0 }, g).key, '5/2');
  assert.deepEqual(ingressQueueOf({ destinationID: 5, cos: 0xff, streamID: 3 }, { mode: 'class', cosBits: 0 }), { key: '5/0', destinationID: 5, cos: 0, cosFreeBits: 8, streamID: null });
});

test('Part 10 §3.4.5 protocol rule 1: the flowID gives the prio, CRF and VC of the stream\'s packets', () => {
  assert.deepEqual(flowPacketFields('0A'), { prio: 0, crf: 0, vc: 0 });
  assert.deepEqual(flowPacketFields('0D'), { prio: 1, crf: 1, vc: 0 });
  assert.deepEqual(flowPacketFields('0D', false), { prio: 2, crf: 0, vc: 0 }, 'no CRF: Table 6-6 "C or higher" at prio 2');
  assert.deepEqual(flowPacketFields('3A'), { prio: 1, crf: 0, vc: 1 }, 'VC3: PRIO||CRF = 0b010');
  assert.deepEqual(new Classifier().flowOf(VIDEO), { prio: 1, crf: 0, vc: 0 });
});

test('Part 10 §2.5: classifier config is checked field by field', () => {
  assert.throws(() => new Classifier({ rules: [{ match: {}, target: { ...VIDEO, cos: 256 } }] }), /^RangeError: rules\[0\]\.target\.cos must be an integer from 0 to 255$/);
  assert.throws(() => new Classifier({ default: { ...VIDEO, streamID: -1 } }), /default\.streamID must be an integer from 0 to 65535/);
  assert.throws(() => new Classifier({ default: { ...VIDEO, flowID: 'ZZ' as '0A' } }), /default\.flowID must be one of/);
  assert.throws(() => new Classifier({ granularity: { mode: 'class', cosBits: 9 } }), /granularity\.cosBits must be an integer from 0 to 8/);
  assert.throws(() => new Classifier({ rules: [{ match: { a: null as unknown as string }, target: VIDEO }] }), /rules\[0\]\.match\.a must be a string, number or boolean/);
});
