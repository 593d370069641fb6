import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputVoqDetector, OutputQueueDetector, makeDetector } from './detectors.ts';

test('VoQ Backpressure §2.5: output-queue watermarks with hysteresis (congested at high, clear at low)', () => {
  const d = new OutputQueueDetector(4, 1);
  assert.equal(d.observe({ kind: 'queue-depth', port: 2, vc: 0, depth: 3 }), null);
  assert.deepEqual(d.observe({ kind: 'queue-depth', port: 2, vc: 0, depth: 4 }), { port: 2, vc: 0, link: null });
  // Between the marks the state holds: "a lot of on/off chatter can occur" otherwise.
  assert.equal(d.observe({ kind: 'queue-depth', port: 2, vc: 0, depth: 2 }), null);
  assert.equal(d.congested(7, 2, 0), true);
  assert.deepEqual(d.observe({ kind: 'queue-depth', port: 2, vc: 0, depth: 1 }), { port: 2, vc: 0, link: null });
  assert.equal(d.congested(7, 2, 'any'), false);
});

test('VoQ Backpressure §2.5: an output queue congests its port towards every link ("sent to all ports that might be sources")', () => {
  const d = new OutputQueueDetector(2, 0);
  d.observe({ kind: 'queue-depth', port: 5, vc: 3, depth: 2 });
  for (const link of [0, 1, 9]) assert.equal(d.congested(link, 5, 'any'), true);
  assert.equal(d.congested(0, 5, 3), true);
  assert.equal(d.congested(0, 5, 0), false);
  assert.deepEqual(d.snapshot(), { kind: 'output-queue', high: 2, low: 0, congested: [{ port: 5, vc: 3 }] });
});

test('VoQ Backpressure §2.5: presorted input VoQs congest a port only towards the link receiving traffic for it', () => {
  const d = new InputVoqDetector(3, 1);
  assert.deepEqual(d.observe({ kind: 'voq-depth', input: 1, output: 4, vc: 0, depth: 3 }), { port: 4, vc: 0, link: 1 });
  assert.equal(d.congested(1, 4, 'any'), true);
  assert.equal(d.congested(2, 4, 'any'), false);
  assert.equal(d.observe({ kind: 'queue-depth', port: 4, vc: 0, depth: 9 }), null);
  assert.deepEqual(d.snapshot(), { kind: 'input-voq', high: 3, low: 1, congested: [{ input: 1, output: 4, vc: 0 }] });
});

test('VoQ Backpressure §2.5: detector configuration is checked (low < high, known kind)', () => {
  assert.throws(() => makeDetector({ kind: 'output-queue', high: 2, low: 2 }), /^RangeError: detector.low must be less than detector.high$/);
  assert.throws(() => makeDetector({ kind: 'input-voq', high: 0, low: 0 }), /detector.high must be a positive integer/);
  assert.throws(() => makeDetector({ kind: 'shared' } as never), /detector.kind must be 'output-queue' or 'input-voq'/);
  const custom = new OutputQueueDetector(1, 0);
  assert.equal(makeDetector(custom), custom);
});
