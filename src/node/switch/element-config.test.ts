import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseConfig } from '../../../test/support/switch-element.ts';
import { SwitchElement } from './element.ts';
import { resolveSwitchConfig } from './config.ts';

function refuses(extra: Record<string, unknown>, message: RegExp): void {
  assert.throws(() => new SwitchElement({ ...baseConfig(), ...extra }), (e: unknown) => e instanceof RangeError && message.test(e.message));
}

test('engine contract: the configuration is checked; a bad field is refused with a RangeError naming it', () => {
  refuses({ ports: 1 }, /^ports must be an integer from 2 to 255$/);
  refuses({ tt: 2 }, /^tt must be 0 or 1$/);
  refuses({ deviceId: 0x1_0000 }, /^deviceId must be an integer from 0 to 65535$/);
  refuses({ routes: { 5: 4 } }, /^routes\[5\] must be an integer from 0 to 3$/);
  refuses({ routes: { x: 1 } }, /^routes key x must be/);
  refuses({ routeLimit: 0x0f, routes: { 0x10: 1 } }, /^routes key 16 must be an integer from 0 to 15$/);
  refuses({ defaultPort: 4 }, /^defaultPort must be/);
  refuses({ portConfig: [{ accept: [0x1_0000] }] }, /^portConfig\[0\]\.accept\[0\] must be/);
  refuses({ portConfig: [{ accept: 'none' }] }, /^portConfig\[0\]\.accept must be 'any' or a list/);
  refuses({ outputBuffer: { packets: 0 } }, /^outputBuffer\.packets must be a positive integer$/);
  refuses({ inputBuffer: { packets: 0 } }, /^inputBuffer\.packets must be a positive integer$/);
  refuses({ ccpQueue: -1 }, /^ccpQueue must be a non-negative integer$/);
  refuses({ congestion: { highWatermark: 2, lowWatermark: 2 } }, /^congestion\.lowWatermark must be below highWatermark$/);
  refuses({ congestion: [null, { highWatermark: 1, lowWatermark: 0, policy: { kind: 'histogram', flows: 9 } }, null, null] }, /^congestion\[1\]\.policy\.flows must be/);
  refuses({ congestion: [null] }, /^congestion must be one setting or a list of 4/);
  refuses({ voq: { high: 2, low: 2 } }, /^voq\.low must be less than voq\.high$/);
  refuses({ voq: { high: 2, low: 0, symbol: 'cs64' } }, /^voq\.symbol must be 'cs48' in the seed format$/);
  refuses({ voq: { high: 2, low: 0, generate: [4] } }, /^voq\.generate\[0\] must be/);
  refuses({ identity: { deviceIdentity: 0x1_0000 } }, /^identity\.deviceIdentity must be/);
});

test('Part 6 §6.12 rule 4: the reserve per priority must leave room for priority 0 after the three higher priorities', () => {
  refuses({ outputBuffer: { packets: 3, reservePerPriority: 1 } }, /^outputBuffer\.reservePerPriority must be less than a third of outputBuffer\.packets$/);
  assert.equal(resolveSwitchConfig(baseConfig({ outputBuffer: { packets: 4, reservePerPriority: 1 } })).outputReserve, 1);
});

test('issue 8 §1, §3, issue 15 (decisions): defaults: Dev16, output-queued, 32-packet output buffers with none reserved per priority, input buffers of 8, 4 CCPs, round robin by class, every port accepts any source, VoQ generation on every port', () => {
  const c = resolveSwitchConfig({ deviceId: 1, ports: 3, routes: {}, voq: { high: 4, low: 1 } });
  assert.deepEqual([c.tt, c.routeLimit, c.queueing, c.outputPackets, c.outputReserve, c.inputBuffers[0]?.packets, c.ccpQueue, c.defaultPort], [1, 0xffff, 'output-queued', 32, 0, 8, 4, undefined]);
  assert.deepEqual([c.arbitration, c.byClass, c.iterations], ['round-robin', true, 1]);
  assert.deepEqual(c.accept, [null, null, null]);
  assert.deepEqual(c.congestion, [null, null, null]);
  assert.deepEqual(c.voq, { high: 4, low: 1, format: 'seed', symbol: 'cs48', refreshPeriod: null, generate: [0, 1, 2], stagingQueues: 3 });
});

test('issue 20 (an accepted option acts): an input-VoQ switch\'s arbitration is its matcher\'s: random needs matcher pim, pim arbitrates at random, the wave front takes one pass, byClass is refused, a matcher and iterations need input-voq', () => {
  const voq = { queueing: 'input-voq', outputBuffer: { packets: 0 } } as const;
  refuses({ ...voq, arbitration: 'random' }, /^arbitration: random does not act with queueing input-voq and matcher islip \(iSLIP's grant and accept pointers are round robin\): matcher: pim is the random matcher$/);
  refuses({ ...voq, matcher: 'wavefront', arbitration: { policy: 'random', seed: 2 } }, /^arbitration\.policy: random does not act with queueing input-voq and matcher wavefront/);
  refuses({ ...voq, arbitration: 'fixed' }, /^arbitration: fixed does not act with queueing input-voq: the matcher arbitrates/);
  refuses({ ...voq, matcher: 'pim', arbitration: 'round-robin' }, /^arbitration: round-robin does not act with matcher pim: PIM grants and accepts at random/);
  refuses({ ...voq, matcher: 'wavefront', iterations: 2 }, /^iterations: expected 1 with matcher wavefront/);
  refuses({ matcher: 'pim' }, /^matcher: expected only with queueing input-voq/);
  refuses({ iterations: 2 }, /^iterations: expected only with queueing input-voq \(the matcher's rounds\); queueing output-queued has none$/);
  refuses({ ...voq, matcher: 'maximum' }, /^matcher must be one of islip, pim, wavefront$/);
  // The matchers' requests carry priority levels: byClass, either way, would be accepted without acting.
  refuses({ ...voq, arbitration: { byClass: false } }, /^arbitration\.byClass: expected no byClass with queueing input-voq: the islip matcher always serves priority levels 3 … 0 first$/);
  refuses({ ...voq, matcher: 'pim', arbitration: { policy: 'random', byClass: true } }, /^arbitration\.byClass: expected no byClass with queueing input-voq: the pim matcher/);
  assert.equal(resolveSwitchConfig(baseConfig({ queueing: 'input-fifo', outputBuffer: { packets: 0 }, arbitration: { byClass: false } })).byClass, false);
  const pim = resolveSwitchConfig(baseConfig({ ...voq, matcher: 'pim', iterations: 3 }));
  assert.deepEqual([pim.matcher, pim.arbitration, pim.seed, pim.iterations], ['pim', 'random', null, 3]);
  const seeded = resolveSwitchConfig(baseConfig({ ...voq, matcher: 'pim', arbitration: { policy: 'random', seed: 9 } }));
  assert.deepEqual([seeded.arbitration, seeded.seed], ['random', 9]);
  const islip = resolveSwitchConfig(baseConfig({ ...voq, arbitration: 'round-robin' }));
  assert.deepEqual([islip.matcher, islip.arbitration], ['islip', 'round-robin']);
  assert.equal(resolveSwitchConfig(baseConfig({ queueing: 'input-fifo', outputBuffer: { packets: 0 }, arbitration: 'random' })).matcher, 'islip');
});
