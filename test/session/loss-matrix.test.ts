import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KS, MS, PROTO, loseFirst, stamp, timed, timedEvents, times, withStream } from '../support/loss-links.ts';
import { rxOf, sessionPair } from '../support/session-pair.ts';
import type { NetMessage, SessionNet } from '../support/session-pair.ts';
import type { ProtocolSupport, SessionEvent, StreamRef } from '../../src/session/types.ts';

/**
 * Annex 2 §3.7.1 "Message loss": every request/answer exchange of the session management protocol
 * with its first k requests, or its first k answers, lost (k = 1..4), between node 1 and node 2,
 * one time unit (1 ns) per hop, default periods: "retried once every 250 msec, with an overall
 * timeout period of 1 second". With k < 4 the retry sent at k × 250 ms completes the exchange; with
 * all four sends (0, 250, 500, 750 ms) unanswered the request fails at 1 s: "Once message
 * transmission has been timed out, the target of the message ... should be deemed suspect".
 * FLOW_CONTROL losses: loss-matrix-flow.test.ts.
 */

const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
type Lose = 'request' | 'answer';

const streams = (net: SessionNet, node: number): StreamRef[] =>
  net.engine(node).snapshot().streams.map((s) => ({ remote: s.remote, direction: s.direction, streamID: s.streamID }));
const conduits = (net: SessionNet, node: number): readonly unknown[] => net.engine(node).snapshot().conduits;

/**
 * The expected sends of one exchange from `base`: attempt j at j × 250 ms, its answer 1 ns later;
 * the first k requests (with no answer) or the first k answers lost; four attempts at most.
 */
function exchange(req: string, ans: string, k: number, lose: Lose, base = 0): string[] {
  const out: string[] = [];
  for (let j = 0; j <= Math.min(k, 3); j++) {
    const t = base + j * 250 * MS;
    const lost = j < k;
    out.push(`${stamp(t)} ${req}${lose === 'request' && lost ? ' lost' : ''}`);
    if (lose === 'answer' || !lost) out.push(`${stamp(t + 1)} ${ans}${lose === 'answer' && lost ? ' lost' : ''}`);
  }
  return out;
}

interface Ctx {
  readonly net: SessionNet;
  readonly k: number;
  readonly lose: Lose;
  /** When the request was first sent. */
  readonly t0: number;
  /** k < 4: when the answer that completes the exchange arrives (t0 + k × 250 ms + 2 ns). */
  readonly done: number;
  /** The stream the command is about, when it is about one. */
  readonly tx?: StreamRef;
}

interface Exchange {
  readonly title: string;
  readonly clause: string;
  readonly request: string;
  readonly answer: string;
  readonly requester: number;
  readonly target: number;
  readonly command: 'REQUEST' | 'OPEN' | 'CLOSE' | 'STATUS';
  readonly isRequest: (m: NetMessage) => boolean;
  readonly isAnswer: (m: NetMessage) => boolean;
  /** The net ready for the command, and the stream the command is about. */
  readonly setup: () => { net: SessionNet; tx?: StreamRef };
  readonly start: (net: SessionNet, tx: StreamRef | undefined) => void;
  /** Every send from the command on, stamped from the command. */
  readonly trace: (k: number, lose: Lose) => string[];
  readonly timeout: SessionEvent;
  /** The requester's events at the timeout, in order. */
  readonly atTimeout: (lose: Lose) => readonly string[];
  /** What k < 4 losses end with, besides the trace. */
  readonly completed: (c: Ctx) => void;
  /** What four losses end with, besides the trace, the timeout and the suspicion. */
  readonly timedOut: (c: Ctx) => void;
  /** The outcome event of k < 4 losses, and what four losses do besides the timeout, for the test name. */
  readonly outcome: string;
  readonly timeoutOutcome?: string;
}

const cmd = (m: NetMessage, command: string, from: number): boolean => m.command === command && m.from === from;
const flags = (m: NetMessage): readonly string[] => (m.message?.command === 'STATUS' ? m.message.statusFlags : []);
const pair = (b: Partial<ProtocolSupport> = {}): SessionNet => sessionPair({ protocols: [P] }, { protocols: [{ ...P, ...b }] });
const conduitPair = (): SessionNet => sessionPair({ protocols: [P], conduitRole: 'master' }, { protocols: [P], conduitRole: 'slave' });

/** Both ends hold one complete conduit, its two streams, reported once. */
function conduitUp(net: SessionNet): void {
  for (const node of [1, 2]) {
    assert.equal(streams(net, node).length, 2);
    assert.equal(conduits(net, node).length, 1);
    assert.equal(timedEvents(net, node, 'conduit').length, 1);
  }
}

function allGone(net: SessionNet): void {
  for (const node of [1, 2]) {
    assert.deepEqual(streams(net, node), []);
    assert.deepEqual(conduits(net, node), []);
  }
}

/** The master's failed OPEN closes its half (§4.2.7: both streams of a conduit "closed at the same time"); the slave then closes its pair's other stream. */
const CLOSED_LINES_MASTER = ['1000ms 1>2 CLOSE', '1000ms+1ns 2>1 CLOSE', '1000ms+1ns 2>1 STATUS CLOSED', '1000ms+2ns 1>2 STATUS CLOSED'];

const EXCHANGES: readonly Exchange[] = [
  {
    title: 'REQUEST/ADVERTISE (§4.2.1–§4.2.2)',
    clause: 'Annex 2 §3.7.1',
    request: 'REQUEST',
    answer: 'ADVERTISE',
    requester: 1,
    target: 2,
    command: 'REQUEST',
    isRequest: (m) => cmd(m, 'REQUEST', 1),
    isAnswer: (m) => cmd(m, 'ADVERTISE', 2),
    setup: () => ({ net: pair() }),
    start: (net) => net.input(1, { kind: 'request', to: 2 }),
    trace: (k, lose) => exchange('1>2 REQUEST', '2>1 ADVERTISE', k, lose),
    timeout: { event: 'timeout', node: 2, command: 'REQUEST' },
    atTimeout: () => ['timeout', 'suspect'],
    completed: ({ net, done }) => {
      assert.deepEqual(timedEvents(net, 1, 'advertised').map((e) => [e.at, e.detail.node]), [[done, 2]]);
    },
    timedOut: ({ net }) => {
      assert.deepEqual(timedEvents(net, 1, 'advertised'), []);
    },
    outcome: 'advertised',
  },
  {
    title: 'OPEN/ACCEPT (§4.2.3–§4.2.4)',
    clause: 'Annex 2 §3.7.1',
    request: 'OPEN',
    answer: 'ACCEPT',
    requester: 1,
    target: 2,
    command: 'OPEN',
    isRequest: (m) => cmd(m, 'OPEN', 1),
    isAnswer: (m) => cmd(m, 'ACCEPT', 2),
    setup: () => ({ net: pair() }),
    start: (net) => net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'o' }),
    trace: (k, lose) => exchange('1>2 OPEN', '2>1 ACCEPT', k, lose),
    timeout: { event: 'timeout', node: 2, command: 'OPEN', ref: 'o' },
    atTimeout: () => ['timeout', 'suspect'],
    completed: ({ net, done }) => {
      const [opened, ...more] = timedEvents(net, 1, 'opened');
      assert.deepEqual([opened?.at, opened?.detail.ref, more.length], [done, 'o', 0]);
      // Every retry reached the target as the same OPEN: one stream, not one per attempt.
      assert.deepEqual(streams(net, 2), [rxOf(1, opened?.detail.stream ?? { remote: 2, direction: 'tx', streamID: -1 })]);
    },
    timedOut: ({ net, lose }) => {
      assert.deepEqual(timedEvents(net, 1, 'opened'), []);
      assert.deepEqual(streams(net, 1), []);
      // With every ACCEPT lost the target keeps the receive stream it opened; its opener never learnt the StreamID.
      assert.equal(streams(net, 2).length, lose === 'answer' ? 1 : 0);
    },
    outcome: 'opened',
  },
  {
    title: 'OPEN/REFUSE (§3.5.1.5, §4.2.5)',
    clause: 'Annex 2 §3.7.1',
    request: 'OPEN',
    answer: 'REFUSE',
    requester: 1,
    target: 2,
    command: 'OPEN',
    isRequest: (m) => cmd(m, 'OPEN', 1),
    isAnswer: (m) => cmd(m, 'REFUSE', 2),
    setup: () => ({ net: pair({ acceptOpen: false }) }),
    start: (net) => net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'r' }),
    trace: (k, lose) => exchange('1>2 OPEN', '2>1 REFUSE', k, lose),
    timeout: { event: 'timeout', node: 2, command: 'OPEN', ref: 'r' },
    atTimeout: () => ['timeout', 'suspect'],
    completed: ({ net, done }) => {
      assert.deepEqual(timedEvents(net, 1, 'refused'), [{ at: done, detail: { event: 'refused', ref: 'r', node: 2, protoID: PROTO } }]);
      assert.deepEqual([streams(net, 1), streams(net, 2)], [[], []]);
    },
    timedOut: ({ net }) => {
      assert.deepEqual(timedEvents(net, 1, 'refused'), []);
      assert.deepEqual([streams(net, 1), streams(net, 2)], [[], []]);
    },
    outcome: 'refused',
  },
  {
    title: 'CLOSE/STATUS Closed (§3.5.1.8, §4.2.7)',
    clause: 'Annex 2 §3.7.1',
    request: 'CLOSE',
    answer: 'STATUS Closed',
    requester: 1,
    target: 2,
    command: 'CLOSE',
    isRequest: (m) => cmd(m, 'CLOSE', 1),
    isAnswer: (m) => cmd(m, 'STATUS', 2) && flags(m).includes('CLOSED'),
    setup: withStream,
    start: (net, tx) => net.input(1, { kind: 'close', stream: tx! }),
    trace: (k, lose) => exchange('1>2 CLOSE', '2>1 STATUS CLOSED', k, lose),
    timeout: { event: 'timeout', node: 2, command: 'CLOSE' },
    atTimeout: () => ['timeout', 'suspect'],
    completed: ({ net, t0, done, k, lose, tx }) => {
      assert.deepEqual(timedEvents(net, 1, 'closed'), [{ at: t0, detail: { event: 'closed', stream: tx!, cause: 'local' } }]);
      assert.deepEqual(timedEvents(net, 1, 'status').map((e) => e.at), [done]);
      // The target closed on the first CLOSE that reached it, and answered every later one Closed too.
      const reached = t0 + (lose === 'request' ? k * 250 * MS : 0) + 1;
      assert.deepEqual(timedEvents(net, 2, 'closed'), [{ at: reached, detail: { event: 'closed', stream: rxOf(1, tx!), cause: 'remote' } }]);
      assert.deepEqual([streams(net, 1), streams(net, 2)], [[], []]);
    },
    timedOut: ({ net, lose, t0, tx }) => {
      assert.deepEqual(timedEvents(net, 1, 'closed'), [{ at: t0, detail: { event: 'closed', stream: tx!, cause: 'local' } }]);
      // With every CLOSE lost the target still holds its end: nothing in §3.7.1 reaches it.
      assert.deepEqual(streams(net, 2), lose === 'request' ? [rxOf(1, tx!)] : []);
    },
    outcome: 'closed',
  },
  {
    title: 'STATUS query/STATUS answer (§3.5.1.9, §4.2.8)',
    clause: 'Annex 2 §3.7.1',
    request: 'STATUS query',
    answer: 'STATUS answer',
    requester: 1,
    target: 2,
    command: 'STATUS',
    isRequest: (m) => cmd(m, 'STATUS', 1) && flags(m).includes('REQUEST_STATUS_OF_REMOTE'),
    isAnswer: (m) => cmd(m, 'STATUS', 2),
    setup: withStream,
    start: (net, tx) => net.input(1, { kind: 'status-query', stream: tx! }),
    trace: (k, lose) => exchange('1>2 STATUS STREAM_FUNCTIONAL|REQUEST_STATUS_OF_REMOTE', '2>1 STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE', k, lose),
    timeout: { event: 'timeout', node: 2, command: 'STATUS' },
    atTimeout: () => ['timeout', 'suspect', 'closed'],
    completed: ({ net, done, tx }) => {
      assert.deepEqual(timedEvents(net, 1, 'status').map((e) => e.at), [done]);
      assert.deepEqual([streams(net, 1), streams(net, 2)], [[tx!], [rxOf(1, tx!)]]);
    },
    timedOut: ({ net, t0, tx }) => {
      // "the streamID specified in the STATUS command must be silently closed locally": no CLOSE is sent (the trace).
      assert.deepEqual(timedEvents(net, 1, 'closed'), [{ at: t0 + 1000 * MS, detail: { event: 'closed', stream: tx!, cause: 'status-timeout' } }]);
      assert.deepEqual(timedEvents(net, 1, 'status'), []);
      assert.deepEqual([streams(net, 1), streams(net, 2)], [[], [rxOf(1, tx!)]]);
    },
    outcome: 'stream functional',
    timeoutOutcome: ', the stream closed locally (status-timeout)',
  },
  {
    title: 'conduit OPEN 0xFFFFFFFF/ACCEPT 0xFFFFSSSS, master to slave (§3.4.1, §3.4.3)',
    clause: 'Annex 2 §3.7.1, §3.4.3',
    request: 'conduit OPEN 0xFFFFFFFF',
    answer: 'ACCEPT 0xFFFFSSSS',
    requester: 1,
    target: 2,
    command: 'OPEN',
    isRequest: (m) => cmd(m, 'OPEN', 1),
    isAnswer: (m) => cmd(m, 'ACCEPT', 2),
    setup: () => ({ net: conduitPair() }),
    start: (net) => net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true }),
    trace: (k, lose) => {
      const lines = exchange('1>2 OPEN', '2>1 ACCEPT', k, lose);
      // The slave's own OPEN follows its first ACCEPT (§3.4.1), whether or not that ACCEPT is lost.
      const slave = (t: number): string[] => [`${stamp(t + 1)} 2>1 OPEN`, `${stamp(t + 2)} 1>2 ACCEPT`];
      if (lose === 'answer') return [...lines.slice(0, 2), ...slave(0), ...lines.slice(2), ...(k === 4 ? CLOSED_LINES_MASTER : [])];
      return k === 4 ? lines : [...lines, ...slave(k * 250 * MS)];
    },
    timeout: { event: 'timeout', node: 2, command: 'OPEN', ref: 'c' },
    atTimeout: (lose) => (lose === 'request' ? ['timeout', 'suspect'] : ['timeout', 'closed', 'suspect']),
    completed: ({ net, t0, done, lose }) => {
      assert.deepEqual(timedEvents(net, 1, 'opened').filter((e) => e.detail.ref === 'c').map((e) => e.at), [done]);
      assert.deepEqual(timedEvents(net, 1, 'conduit').map((e) => e.at), [done]);
      assert.deepEqual(timedEvents(net, 2, 'conduit').map((e) => e.at), [lose === 'request' ? done + 1 : t0 + 3]);
      conduitUp(net);
    },
    timedOut: ({ net, lose, t0 }) => {
      assert.deepEqual(timedEvents(net, 1, 'conduit'), []);
      // Half a conduit carries nothing back: the master's receive stream goes with the failed OPEN, and the slave's pair with it.
      const half = timedEvents(net, 1, 'closed').map((e) => [e.at - t0, e.detail.stream.direction, e.detail.cause]);
      assert.deepEqual(half, lose === 'request' ? [] : [[1000 * MS, 'rx', 'conduit']]);
      allGone(net);
    },
    outcome: 'conduit',
  },
  {
    title: 'conduit OPEN 0xFFFFSSSS/ACCEPT 0xSSSSMMMM, slave to master (§3.4.1, §3.4.3)',
    clause: 'Annex 2 §3.7.1, §3.4.3',
    request: 'conduit OPEN 0xFFFFSSSS',
    answer: 'ACCEPT 0xSSSSMMMM',
    requester: 2,
    target: 1,
    command: 'OPEN',
    isRequest: (m) => cmd(m, 'OPEN', 2),
    isAnswer: (m) => cmd(m, 'ACCEPT', 1),
    setup: () => ({ net: conduitPair() }),
    start: (net) => net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true }),
    trace: (k, lose) => {
      const tail = lose === 'request' ? ['1000ms+1ns 2>1 CLOSE', '1000ms+2ns 1>2 STATUS CLOSED'] : ['1000ms+1ns 2>1 CLOSE', '1000ms+2ns 1>2 CLOSE', '1000ms+2ns 1>2 STATUS CLOSED', '1000ms+3ns 2>1 STATUS CLOSED'];
      return ['0ms 1>2 OPEN', '0ms+1ns 2>1 ACCEPT', ...exchange('2>1 OPEN', '1>2 ACCEPT', k, lose, 1), ...(k === 4 ? tail : [])];
    },
    // The conduit procedure's own OPEN is no application command: its timeout carries no ref.
    timeout: { event: 'timeout', node: 1, command: 'OPEN' },
    atTimeout: () => ['timeout', 'closed', 'suspect'],
    completed: ({ net, t0, done, lose }) => {
      assert.deepEqual(timedEvents(net, 2, 'conduit').map((e) => e.at), [done]);
      assert.deepEqual(timedEvents(net, 1, 'conduit').map((e) => e.at), [lose === 'request' ? done - 1 : t0 + 1]);
      conduitUp(net);
    },
    timedOut: ({ net, lose, t0 }) => {
      assert.deepEqual(timedEvents(net, 2, 'conduit'), []);
      const slave = timedEvents(net, 2, 'closed').map((e) => [e.at - t0, e.detail.stream.direction, e.detail.cause]);
      assert.deepEqual(slave, [[1000 * MS, 'rx', 'conduit']]);
      const master = timedEvents(net, 1, 'closed').map((e) => [e.at - t0, e.detail.stream.direction, e.detail.cause]);
      assert.deepEqual(master, lose === 'request' ? [[1000 * MS + 1, 'tx', 'remote']] : [[1000 * MS + 1, 'tx', 'remote'], [1000 * MS + 1, 'rx', 'conduit']]);
      allGone(net);
    },
    outcome: 'conduit',
  },
];

function runCell(x: Exchange, k: number, lose: Lose): void {
  const { net, tx } = x.setup();
  const from = net.trace.length;
  const start = net.now;
  loseFirst(net, lose === 'request' ? x.isRequest : x.isAnswer, k);
  x.start(net, tx);
  net.settle();
  const sent = net.trace.slice(from);
  const requests = sent.filter(x.isRequest);
  const answers = sent.filter(x.isAnswer);
  const t0 = requests[0]?.at ?? -1;
  const c: Ctx = { net, k, lose, t0, done: t0 + k * 250 * MS + 2, ...(tx && { tx }) };
  assert.deepEqual(timed(net, from, start), x.trace(k, lose));
  // "retransmission of the original request": every attempt is the same message, every answer too.
  assert.deepEqual(requests.map((m) => m.at - t0), [0, 250, 500, 750].slice(0, Math.min(k, 3) + 1).map((t) => t * MS));
  for (const m of [...requests.slice(1), ...answers.slice(1)]) assert.deepEqual(m.bytes, (x.isRequest(m) ? requests : answers)[0]?.bytes);
  const counters = net.engine(x.requester).counters();
  for (const node of [1, 2]) {
    assert.deepEqual(net.engine(node).snapshot()['pending'], [], `node ${node} waits for nothing`);
    const n = net.engine(node).counters();
    assert.deepEqual([n.staleResponses, n.malformed, n.statusCommandUnknown, n.statusStreamUnknown], [0, 0, 0, 0]);
  }
  if (k < 4) {
    assert.deepEqual([counters.retries, counters.timeouts, counters.suspects], [k, 0, 0]);
    assert.deepEqual([...net.eventsOf('timeout'), ...net.eventsOf('suspect')], []);
    x.completed(c);
    return;
  }
  assert.deepEqual([counters.retries, counters.timeouts, counters.suspects], [3, 1, 1]);
  const expiry = t0 + 1000 * MS;
  const reason = `${x.command} timed out`;
  assert.deepEqual(net.events.filter((e) => e.node === x.requester && e.at === expiry).map((e) => e.detail.event), x.atTimeout(lose));
  assert.deepEqual(timedEvents(net, x.requester, 'timeout'), [{ at: expiry, detail: x.timeout }]);
  assert.deepEqual(timedEvents(net, x.requester, 'suspect'), [{ at: expiry, detail: { event: 'suspect', node: x.target, reason } }]);
  assert.deepEqual(net.engine(x.requester).snapshot()['suspects'], [{ node: x.target, reason }]);
  assert.deepEqual(net.eventsOf('suspect', x.target), [], 'the target suspects nobody');
  x.timedOut(c);
}

for (const x of EXCHANGES) {
  describe(`Annex 2 §3.7.1 loss matrix, ${x.title}`, () => {
    for (const lose of ['request', 'answer'] as const) {
      const lost = lose === 'request' ? x.request : x.answer;
      for (const k of KS) {
        const done = lose === 'request' ? `${x.answer} after the retry at ${k * 250} ms` : `the ${x.request} retried at ${k * 250} ms is answered`;
        const name = k < 4
          ? `${x.clause} loss matrix: ${lost} lost ${times(k)} → ${done} (${x.outcome})`
          : `${x.clause} loss matrix: ${lost} lost 4 times → no ${x.answer}: ${x.command} timeout at 1 s, node ${x.target} suspect${x.timeoutOutcome ?? ''}`;
        test(name, () => {
          runCell(x, k, lose);
        });
      }
    }
  });
}

