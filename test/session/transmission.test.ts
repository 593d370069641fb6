import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attempt } from '../../src/wire/errors.ts';
import { attrPeriod, decodeSmp, smpBytes, smpOpen, STATUS_BIT } from '../../src/wire/smp/index.ts';
import { SessionEngine } from '../../src/session/engine.ts';
import { openStream, rxOf, sessionPair } from '../support/session-pair.ts';
import type { ProtocolSupport, SendMessageOutput, SessionOutput } from '../../src/session/types.ts';

/** What the engine puts on the wire: reserved fields (§3.8.5), STATUS context data (§4.2.8), priorities (§3.5.2.4, §3.7.2). */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000)] };
const MS = 1_000_000;

/** Two validation-mode engines through every kind of exchange: the trace of what they sent. */
function everyExchange(): ReturnType<typeof sessionPair> {
  const net = sessionPair({ protocols: [P], validation: true, userDefined: [0xf1] }, { protocols: [P], validation: true, userDefined: [0xf1] });
  net.input(1, { kind: 'request', to: 2 });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'a');
  assert.ok(tx);
  const rx = rxOf(1, tx);
  net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.from({ length: 5000 }, (_, i) => i & 0xff) });
  net.input(1, { kind: 'status-query', stream: tx });
  net.settle();
  net.input(2, { kind: 'xoff', stream: rx });
  net.settle();
  net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(1, 2, 3) });
  net.settle(net.now + 5);
  net.input(2, { kind: 'xon', stream: rx });
  net.input(1, { kind: 'userdefined', to: 2, cmd: 0xf1, streamID: tx.streamID, data: Uint8Array.of(7, 7, 7, 7, 7, 7, 7, 7) });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'conduit', conduit: true });
  net.settle();
  net.input(2, { kind: 'open', to: 1, protoID: 0x0999, ref: 'refused' });
  net.input(2, { kind: 'close', stream: rx });
  net.settle();
  return net;
}

test('Annex 2 §3.8.5: "On transmission, these fields must be filled with zeros": everything two engines send through every kind of exchange decodes strictly, and neither finds the other suspect', () => {
  const net = everyExchange();
  const commands = new Set(net.trace.map((m) => m.command));
  for (const c of ['REQUEST', 'ADVERTISE', 'OPEN', 'ACCEPT', 'REFUSE', 'DATA', 'STATUS', 'FLOW_CONTROL', 'USERDEFINED', 'CLOSE']) assert.ok(commands.has(c), `the exchange includes ${c}`);
  for (const m of net.trace) {
    const strict = attempt(() => decodeSmp(m.bytes, 0, m.bytes.length, { strict: true }));
    assert.ok(strict.ok, `${m.command} from ${m.from} decodes strictly: ${strict.ok ? '' : strict.error.message}`);
  }
  for (const node of [1, 2]) {
    assert.equal(net.engine(node).counters().malformed, 0);
    assert.equal(net.engine(node).counters().suspects, 0);
  }
});

test('Annex 2 §4.2.8: "The STATUS message will only include <ContextSpecificData> fields when a STATUS message is sent as a response for an unrecognized/unsupported/malformed message or in response to a STATUS message"', () => {
  const net = everyExchange();
  net.input(2, { kind: 'message', from: 1, bytes: Uint8Array.of(0x55, 0x01, 0, 1, 0, 2, 0, 0) });
  net.settle();
  const statuses = net.trace.flatMap((m) => (m.message?.command === 'STATUS' ? [m.message] : []));
  const withData = statuses.filter((s) => s.contextSpecificData.length > 0);
  assert.ok(withData.length >= 2, 'a query answer and a Command_Unknown carry context data');
  for (const s of withData) {
    const commandUnknown = (s.status & STATUS_BIT.COMMAND_UNKNOWN) !== 0;
    const queryAnswer = s.streamProtocol !== undefined && (s.status & STATUS_BIT.REQUEST_STATUS_OF_REMOTE) === 0;
    assert.ok(commandUnknown || queryAnswer, `STATUS ${s.statusFlags.join('|')} carries context data`);
  }
  const closed = statuses.filter((s) => s.status === STATUS_BIT.CLOSED);
  assert.ok(closed.length >= 1);
  for (const s of closed) assert.equal(s.contextSpecificData.length, 0);
  const queries = statuses.filter((s) => (s.status & STATUS_BIT.REQUEST_STATUS_OF_REMOTE) !== 0);
  assert.ok(queries.length >= 1);
  for (const s of queries) assert.equal(s.contextSpecificData.length, 0, 'a query has <DataSize> zero');
});

const sends = (out: readonly SessionOutput[]): SendMessageOutput[] => out.filter((o): o is SendMessageOutput => o.kind === 'send');

test('Annex 2 §3.5.2.4, §3.7.2 (decision): "every message with a given COS value must be transmitted with equal priority" within its §3.7.2 class: the priority follows the command, never the COS', () => {
  const low: ProtocolSupport = { protoID: PROTO, attributes: [], cos: 0 };
  const high: ProtocolSupport = { protoID: 0x2345, attributes: [], cos: 7 };
  const net = sessionPair({ protocols: [low, high] }, { protocols: [low, high] });
  const a = openStream(net, 1, 2, PROTO, 'cos0');
  const b = openStream(net, 1, 2, 0x2345, 'cos7');
  assert.ok(a && b);
  const seen: [string, number, string][] = [];
  const note = (out: readonly SessionOutput[]): void => {
    for (const s of sends(out)) {
      const m = s.message;
      const cos = 'cos' in m ? m.cos : -1;
      seen.push([m.command, cos, s.priority]);
    }
  };
  for (const tx of [a, b]) {
    note(net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(1, 2, 3, 4) }));
    note(net.input(2, { kind: 'xoff', stream: rxOf(1, tx) }));
    note(net.input(1, { kind: 'close', stream: tx }));
  }
  const e = new SessionEngine({ nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 }, protocols: [low, high] });
  for (const protoID of [PROTO, 0x2345]) note(e.handle({ kind: 'message', from: 1, bytes: smpBytes(smpOpen({ sourceID: 1, protoID, openMessageNumber: protoID })) }, 10 * MS));
  assert.deepEqual(seen, [
    ['DATA', 0, 'normal'], ['FLOW_CONTROL', 0, 'high'], ['CLOSE', 0, 'high'],
    ['DATA', 7, 'normal'], ['FLOW_CONTROL', 7, 'high'], ['CLOSE', 7, 'high'],
    ['ACCEPT', 0, 'high'], ['ACCEPT', 7, 'high'],
  ]);
});
