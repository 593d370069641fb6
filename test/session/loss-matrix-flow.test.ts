import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KS, MS, inOrder, loseFirst, timed, timedEvents, times, withStream } from '../support/loss-links.ts';
import { rxOf } from '../support/session-pair.ts';
import type { NetMessage, SessionNet } from '../support/session-pair.ts';

/**
 * Annex 2 §3.7.1 "Message loss" of FLOW_CONTROL between node 1 (data sender) and node 2 (data
 * receiver), one time unit (1 ns) per hop, default periods. "FLOW_CONTROL XOFF message loss is
 * detected through continued transmission of DATA ... the implementation may send additional
 * FLOW_CONTROL XOFF messages"; "FLOW_CONTROL XON message loss is detected through timeouts";
 * RTS "may retry the message at 250 msec intervals, until 1 second has elapsed" (§4.2.6).
 * Request/answer exchanges: loss-matrix.test.ts.
 */

const isFlow = (m: NetMessage, name: string, from: number): boolean => m.message?.command === 'FLOW_CONTROL' && m.message.flowControlName === name && m.from === from;
const xoffOf = (net: SessionNet, node: number): boolean[] => net.engine(node).snapshot().streams.map((s) => s.xoff);

describe('Annex 2 §3.7.1 loss matrix, FLOW_CONTROL (§3.5.3.6, §4.2.6)', () => {
  for (const k of KS) {
    test(`Annex 2 §3.7.1 loss matrix: XOFF lost ${times(k)} → the DATA that keeps coming is delivered, the engine repeats no XOFF itself, the receiver's xoff again sends XOFF ${k + 1} times and the data sender then holds its PDU and sends RTS`, () => {
      const { net, tx } = withStream();
      const rx = rxOf(1, tx);
      const from = net.trace.length;
      const start = net.now;
      loseFirst(net, (m) => isFlow(m, 'XOFF', 2), k);
      net.input(2, { kind: 'xoff', stream: rx });
      // The data sender sends a PDU every 100 ms; the receiver's application, seeing one arrive on a stream it turned off
      // ("XOFF message loss is detected through continued transmission of DATA"), turns it off again.
      for (let i = 1; i <= k + 1; i++) {
        net.run(start + i * 100 * MS);
        const before = net.deliveries.length;
        net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(i) });
        net.run(start + i * 100 * MS + 10);
        if (net.deliveries.length > before) net.input(2, { kind: 'xoff', stream: rx });
      }
      const expected: [number, string][] = [[0, '2>1 FLOW_CONTROL XOFF lost'], [(k + 1) * 100 * MS, '1>2 FLOW_CONTROL RTS']];
      for (let i = 1; i <= k; i++) expected.push([i * 100 * MS, '1>2 DATA'], [i * 100 * MS + 10, `2>1 FLOW_CONTROL XOFF${i < k ? ' lost' : ''}`]);
      assert.deepEqual(timed(net, from, start), inOrder(expected));
      assert.deepEqual(net.deliveries.map((d) => [d.at - start, d.pdu[0]]), Array.from({ length: k }, (_, i) => [(i + 1) * 100 * MS + 1, i + 1]));
      assert.deepEqual(timedEvents(net, 1, 'xoff').map((e) => e.at - start), [k * 100 * MS + 11]);
      assert.deepEqual(timedEvents(net, 2, 'rts').map((e) => e.at - start), [(k + 1) * 100 * MS + 1]);
      assert.deepEqual([xoffOf(net, 1), xoffOf(net, 2)], [[true], [true]]);
      assert.deepEqual([net.engine(1).counters().retries, net.engine(2).counters().retries], [0, 0]);
    });
  }

  for (const k of KS) {
    test(`Annex 2 §3.7.1, §3.5.3.6 loss matrix: XON lost ${times(k)} → the FLOW_CONTROL_XON_TIMEOUT resumes the stream exactly 1 s after the XOFF arrived, and the held PDU goes`, () => {
      const { net, tx } = withStream();
      const rx = rxOf(1, tx);
      const from = net.trace.length;
      const start = net.now;
      loseFirst(net, (m) => isFlow(m, 'XON', 2), k);
      net.input(2, { kind: 'xoff', stream: rx });
      net.run(start + 10);
      net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(7) });
      for (let j = 1; j <= k; j++) {
        net.run(start + j * 200 * MS);
        net.input(2, { kind: 'xon', stream: rx });
      }
      const resume = start + 1 + 1000 * MS;
      net.run(resume - 1);
      assert.deepEqual([timedEvents(net, 1, 'xon-timeout'), net.deliveries], [[], []]);
      net.settle();
      assert.deepEqual(timedEvents(net, 1, 'xon-timeout'), [{ at: resume, detail: { event: 'xon-timeout', stream: tx } }]);
      assert.deepEqual(net.deliveries.map((d) => [d.at - start, d.pdu[0]]), [[1000 * MS + 2, 7]]);
      const expected: [number, string][] = [[0, '2>1 FLOW_CONTROL XOFF'], [1000 * MS + 1, '1>2 DATA']];
      for (let j = 0; j < 4; j++) expected.push([j * 250 * MS + 10, '1>2 FLOW_CONTROL RTS']);
      for (let j = 1; j <= k; j++) expected.push([j * 200 * MS, '2>1 FLOW_CONTROL XON lost']);
      assert.deepEqual(timed(net, from, start), inOrder(expected));
      assert.deepEqual(timedEvents(net, 1, 'xon'), []);
      assert.deepEqual(xoffOf(net, 1), [false]);
    });
  }

  for (const k of KS) {
    test(`Annex 2 §3.7.1, §4.2.6 loss matrix: RTS lost ${times(k)} → RTS retried every 250 ms until 1 s has elapsed (0, 250, 500, 750 ms) and never after, though the stream stays off; the receiver hears ${4 - k} of them`, () => {
      const { net, tx } = withStream();
      const rx = rxOf(1, tx);
      const from = net.trace.length;
      const start = net.now;
      loseFirst(net, (m) => isFlow(m, 'RTS', 1), k);
      net.input(2, { kind: 'xoff', stream: rx });
      net.run(start + 10);
      net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(9) });
      // A repeated XOFF restarts the XON timeout (§3.7.1), keeping the stream off past the RTS limit.
      net.run(start + 900 * MS);
      net.input(2, { kind: 'xoff', stream: rx });
      net.run(start + 1900 * MS);
      const rts: [number, string][] = [0, 1, 2, 3].map((j) => [j * 250 * MS + 10, `1>2 FLOW_CONTROL RTS${j < k ? ' lost' : ''}`]);
      assert.deepEqual(timed(net, from, start), inOrder([[0, '2>1 FLOW_CONTROL XOFF'], ...rts, [900 * MS, '2>1 FLOW_CONTROL XOFF']]));
      assert.deepEqual(timedEvents(net, 2, 'rts').map((e) => e.at - start), [0, 1, 2, 3].filter((j) => j >= k).map((j) => j * 250 * MS + 11));
      assert.equal(net.engine(1).counters().retries, 3);
      assert.deepEqual([xoffOf(net, 1), net.deliveries], [[true], []]);
      net.settle();
      assert.deepEqual(timedEvents(net, 1, 'xon-timeout').map((e) => e.at - start), [1900 * MS + 1]);
      assert.deepEqual(net.deliveries.map((d) => [d.at - start, d.pdu[0]]), [[1900 * MS + 2, 9]]);
    });
  }
});
