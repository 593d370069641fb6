import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ProtocolSupport, StreamRef } from '../../src/session/types.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { fcParams } from '../support/fc.ts';
import { EndpointNet, isManagementSegment, octets, openedStream, type11Node } from '../support/endpoint-net.ts';

const PROTO = 0x1234;
/** Application attempts at opening the stream: each OPEN is given up after REQUEST_TIMEOUT_PERIOD. */
const OPEN_ATTEMPTS = 12;

/**
 * Loses management packets by a pattern: the k-th packet of a management message (a segment, or
 * the Type 13 response to one) is dropped when `pattern[k]` is true; DATA and discovery are never
 * lost. Responses are known by the letter, mailbox and xmbox of the segment they answer.
 */
function managementLoss(pattern: readonly boolean[]): (w: { readonly from: number; readonly to: number; readonly packet: Packet }) => 'deliver' | 'drop' {
  let k = 0;
  const answers = new Set<string>();
  return ({ from, to, packet }) => {
    let management = false;
    if (isManagementSegment(packet)) {
      management = true;
      answers.add(`${to}>${from}/${packet.letter}/${packet.mbox}/${packet.xmbox ?? 0}`);
    } else if (packet.ftype === 13 && packet.transactionName === 'MESSAGE_RESPONSE') {
      management = answers.delete(`${from}>${to}/${packet.letter}/${packet.mbox}/${packet.msgseg}`);
    }
    if (!management) return 'deliver';
    return pattern[k++] === true ? 'drop' : 'deliver';
  };
}

test('Annex 2 §3.7.1, §4.3.1: with management packets lost at random (retried by the session, OPEN again by the application), every PDU of any size is delivered intact, in order, once', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom<'DATA' | 'DATA1'>('DATA', 'DATA1'),
      fc.array(fc.boolean(), { maxLength: 24 }),
      (sizes, format, pattern) => {
        const p: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: format };
        const net = new EndpointNet();
        net.add(type11Node(1, 1, { protocols: [p], discover: [2] }));
        net.add(type11Node(2, 2, { protocols: [p], discover: [1], tag: true }));
        net.filter = managementLoss(pattern);
        for (const n of [1, 2]) net.input(n, { kind: 'discover' });
        net.settle();
        let tx: StreamRef | undefined;
        for (let i = 0; i < OPEN_ATTEMPTS && tx === undefined; i++) {
          net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: `o${i}` });
          net.settle();
          tx = openedStream(net, 1, `o${i}`);
        }
        assert.ok(tx, 'the stream opens');
        const pdus = sizes.map((n, i) => octets(n, i + 1));
        for (const pdu of pdus) net.input(1, { kind: 'send', stream: tx, pdu });
        net.settle();
        const got = net.deliveriesTo(2);
        assert.deepEqual(got.map((d) => d.stream), pdus.map(() => ({ remote: 1, direction: 'rx', streamID: tx.streamID })));
        assert.deepEqual(got.map((d) => d.pdu), pdus);
        assert.equal(net.node(2).engineCounters().session.dataDiscarded, 0);
      },
    ),
    fcParams(300),
  );
});
