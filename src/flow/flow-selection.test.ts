import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { FlowHistogram } from './flow-selection.ts';
import { ccpFlowKey } from './offending-flow.ts';
import type { CcpFlow } from './offending-flow.ts';

function flow(destinationID: number, flowID: FlowIdLabel = '0A'): CcpFlow {
  return { destinationID, tgtdestinationID: 9, flowID, tt: 0 };
}

/** Adds `n` packets of a flow; returns its key. */
function put(h: FlowHistogram, f: CcpFlow, n: number, opts: { crf?: number; response?: boolean } = {}): string {
  const key = ccpFlowKey(f);
  for (let i = 0; i < n; i++) h.add(key, f, opts.crf ?? 0, opts.response ?? false);
  return key;
}

function topIds(h: FlowHistogram, n: number, policy: 'fallback' | 'ignore' | 'equal' = 'fallback'): number[] {
  return h.top(n, policy).map((b) => b.flow.destinationID);
}

test('Part 9 Annex A.1 method 1: "selects the 1 to 5 transaction request flows with the most packets stored in the buffers"', () => {
  const h = new FlowHistogram();
  put(h, flow(1), 2);
  put(h, flow(2), 5);
  put(h, flow(3), 1);
  put(h, flow(4), 4);
  put(h, flow(5), 3);
  put(h, flow(6), 6);
  assert.deepEqual(topIds(h, 1), [6]);
  assert.deepEqual(topIds(h, 3), [6, 2, 4]);
  assert.deepEqual(topIds(h, 5), [6, 2, 4, 5, 1]);
});

test('Part 9 §2.4.3: "A switch may select for shut off a packet with CRF=0 over a packet with CRF=1" at equal counts', () => {
  const h = new FlowHistogram();
  put(h, flow(1, '0B'), 3, { crf: 1 });
  put(h, flow(2, '0E'), 3, { crf: 0 });
  assert.deepEqual(topIds(h, 2), [2, 1]);
});

test('Part 9 §2.4.3 (decision): at equal counts and CRF, a request flow before a response flow, then the lower flowID, then the flow seen first', () => {
  const h = new FlowHistogram();
  put(h, flow(1, '0C'), 2, { response: true });
  put(h, flow(2, '0C'), 2);
  assert.deepEqual(topIds(h, 2, 'equal'), [2, 1]);
  const g = new FlowHistogram();
  put(g, flow(1, '0E'), 2);
  put(g, flow(2, '0C'), 2);
  put(g, flow(3, '0C'), 2);
  assert.deepEqual(topIds(g, 3), [2, 3, 1]);
});

test('Part 9 §2.4.3 "preferably made using request packets, not response packets": fallback ranks response-only flows after every request flow', () => {
  const h = new FlowHistogram();
  put(h, flow(1), 9, { response: true });
  put(h, flow(2), 1);
  const mixed = put(h, flow(3), 2);
  put(h, flow(3), 5, { response: true });
  // Flow 3 is weighed by its 2 requests; flow 1 (responses only) fills the last place.
  assert.deepEqual(topIds(h, 3), [3, 2, 1]);
  assert.deepEqual(topIds(h, 3, 'ignore'), [3, 2]);
  // equal: every packet counts, so flow 1 (9) leads flow 3 (7).
  assert.deepEqual(topIds(h, 3, 'equal'), [1, 3, 2]);
  assert.equal(h.count(mixed), 7);
  assert.equal(h.requestPackets(), 3);
});

test('Part 9 Annex A.1: a removed packet leaves the histogram; removing one that is not there changes nothing', () => {
  const h = new FlowHistogram();
  const k = put(h, flow(1), 1);
  assert.equal(h.remove(k, true), false);
  assert.equal(h.remove(ccpFlowKey(flow(7)), false), false);
  assert.equal(h.remove(k, false), true);
  assert.equal(h.remove(k, false), false);
  assert.equal(h.count(k), 0);
  assert.deepEqual([...h.buckets()], []);
  assert.equal(h.requestPackets(), 0);
});

test('Part 9 Annex A.1 (decision): a flow that empties and comes back is "seen" anew for the last tie-break', () => {
  const h = new FlowHistogram();
  const a = put(h, flow(1), 1);
  put(h, flow(2), 1);
  assert.deepEqual(topIds(h, 1), [1]);
  h.remove(a, false);
  put(h, flow(1), 1);
  assert.deepEqual(topIds(h, 2), [2, 1]);
});
