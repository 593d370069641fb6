import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStream, rxOf, sessionPair } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import { attrPeriod } from '../wire/smp/index.ts';
import type { ProtocolSupport, SessionConfig } from './types.ts';
import { SESSION_COUNTERS } from './types.ts';

const P: ProtocolSupport = { protoID: 0x1234, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000)] };
const BASE: SessionConfig = { nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [P] };

test('Annex 2 §3.5.3.4-6: the configuration defaults are 250 ms retry, 1 s timeout, 1 s XON timeout (in ns), RTS every 250 ms for 1 s', () => {
  const s = new SessionEngine(BASE).snapshot();
  assert.equal(s['nodeId'], 1);
  assert.equal(s['conduitRole'], 'peers');
  assert.equal(s['validation'], false);
  const net = sessionPair({ protocols: [{ protoID: 1, attributes: [] }] }, { protocols: [{ protoID: 1, attributes: [] }] });
  const tx = openStream(net, 1, 2, 1, 'd');
  assert.ok(tx);
  assert.deepEqual(net.eventsOf('opened', 1)[0]?.stream.settings, {
    retryPeriod: 250_000_000, timeoutPeriod: 1_000_000_000, xonTimeout: 1_000_000_000, dataHeaderFormat: 'DATA', data2Octet: 0, dataOffset: 0,
  });
});

test('Annex 2 §3.2-§3.3: a bad configuration is refused with a RangeError naming the field', () => {
  const bad: [Partial<SessionConfig> | Record<string, unknown>, RegExp][] = [
    [{ nodeId: 0x10000 }, /^RangeError: nodeId must be/],
    [{ nodeId: 0x100, deviceIdBits: 8 }, /^RangeError: nodeId must be an integer from 0 to 255/],
    [{ contact: { conveyance: 'type12' } }, /contact\.conveyance must be/],
    [{ contact: { conveyance: 'type11', mailbox: 64 } }, /contact\.mailbox must be an integer from 0 to 63/],
    [{ contact: { conveyance: 'type9', streamID: 1 } }, /contact\.cos must be/],
    [{ protocols: [{ protoID: 0xffff, attributes: [] }] }, /protocols\[0\]\.protoID must be/],
    [{ protocols: [P, P] }, /protocols\[1\]\.protoID must not repeat/],
    [{ protocols: [{ protoID: 1, attributes: [{ id: 0x80, value: new Uint8Array(7) }] }] }, /protocols\[0\]\.attributes\[0\] must be an attribute/],
    [{ retryPeriod: 0 }, /retryPeriod must be a positive integer/],
    [{ conduitRole: 'boss' }, /conduitRole must be/],
    [{ userDefined: [0x10] }, /userDefined\[0\] must be an integer from 240 to 255/],
    [{ dataMailboxes: [-1] }, /dataMailboxes\[0\]/],
    [{ dataMailboxes: [64] }, /dataMailboxes\[0\] must be an integer from 0 to 63/],
    [{ type11SegmentSize: 100 }, /type11SegmentSize must be/],
    [{ validation: 'yes' }, /validation must be a boolean/],
  ];
  for (const [patch, re] of bad) assert.throws(() => new SessionEngine({ ...BASE, ...patch }), (e: unknown) => e instanceof RangeError && re.test(String(e)), JSON.stringify(patch));
});

test('Engine contract: counters() is a copy with every SESSION_COUNTERS name; snapshot() is plain JSON', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  net.input(1, { kind: 'request', to: 2, protoID: 0x1234 });
  net.settle();
  const tx = openStream(net, 1, 2, 0x1234, 'j');
  assert.ok(tx);
  net.input(2, { kind: 'xoff', stream: rxOf(1, tx) });
  net.run(net.now + 5);
  net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(1) });
  const e = net.engine(1);
  const c = e.counters();
  assert.deepEqual(Object.keys(c), [...SESSION_COUNTERS]);
  c.messagesIn = 999;
  assert.notEqual(e.counters().messagesIn, 999);
  const snap = e.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  const streams = snap.streams;
  assert.equal(streams[0]?.xoff, true);
  assert.equal(streams[0].queued, 1);
  assert.equal(streams[0].attributes[0]?.value, '000186a0');
  assert.ok(snap.timers.length > 0);
});

test('Engine contract: a timer expiry delivered late, twice or for an unknown timer is ignored', () => {
  const e = new SessionEngine(BASE);
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0);
  const out = e.handle({ kind: 'open', to: 2, protoID: 0x1234, ref: 't' }, 0);
  const t = out.find((o) => o.kind === 'timer');
  assert.ok(t?.kind === 'timer' && t.at !== null);
  assert.deepEqual(e.handle({ kind: 'timer', name: t.name }, t.at - 1), []);
  assert.equal(e.handle({ kind: 'timer', name: t.name }, t.at).filter((o) => o.kind === 'send').length, 1);
  assert.deepEqual(e.handle({ kind: 'timer', name: t.name }, t.at), []);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'xon:9/tx/9' }, 10 ** 12), []);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'nonsense' }, 10 ** 12), []);
});

test('Annex 2 §3.3: a contact input with a malformed contact is dropped with an event; a good one makes the node reachable', () => {
  const e = new SessionEngine(BASE);
  const out = e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 64 } }, 0);
  assert.deepEqual(out, [{ kind: 'event', at: 0, detail: { event: 'dropped', reason: 'invalid-contact: contact.mailbox must be an integer from 0 to 63', node: 2 } }]);
  assert.deepEqual(e.snapshot()['contacts'], []);
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type9', streamID: 5, cos: 1 } }, 0);
  assert.deepEqual(e.snapshot()['contacts'], [{ node: 2, contact: { conveyance: 'type9', streamID: 5, cos: 1 } }]);
});
