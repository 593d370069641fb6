import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionEngine } from '../../src/session/engine.ts';
import type { DeliverOutput, ProtocolSupport, SessionConfig, SessionEvent, SessionInput, StreamRef } from '../../src/session/types.ts';
import { ethernetAttributes } from '../../src/session/ethernet.ts';
import { drain, end, events, feed, messages, wire } from '../support/type11-link.ts';
import type { End } from '../support/type11-link.ts';

/**
 * Session engines over real Type 11 conveyances (src/session/type11-conveyance.ts): whatever the
 * engine hands its conveyance, the conveyance takes (decision T2: mailbox sizes; T20: no
 * multicast), and what arrives is what was sent (decision T5: the pad is delivered too).
 */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const ETH: ProtocolSupport = { protoID: 0x0102, attributes: ethernetAttributes({ mtu: 1500, mailbox: 1, mac: Uint8Array.of(0x00, 0xa0, 0x1e, 0, 0, 1) }) };
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 5 + 1) & 0xff);

/** Nodes, each a SessionEngine and its Type11Conveyance; packets go to the conveyance their destinationID names. */
class Type11Net {
  readonly engines = new Map<number, SessionEngine>();
  readonly ends = new Map<number, End>();
  readonly delivered: (DeliverOutput & { readonly node: number })[] = [];
  readonly events: { readonly node: number; readonly detail: SessionEvent }[] = [];
  readonly #taken = new Map<number, number>();

  constructor(configs: readonly SessionConfig[]) {
    for (const c of configs) {
      this.engines.set(c.nodeId, new SessionEngine(c));
      this.ends.set(c.nodeId, end(c.nodeId));
      this.#taken.set(c.nodeId, 0);
    }
    for (const c of configs) {
      for (const o of configs) if (o !== c) this.input(c.nodeId, { kind: 'contact', node: o.nodeId, contact: o.contact });
    }
  }

  input(node: number, input: SessionInput): void {
    const e = this.#end(node);
    for (const o of (this.engines.get(node) as SessionEngine).handle(input, 0)) {
      if (o.kind === 'send') feed(e, o, 0);
      else if (o.kind === 'deliver') this.delivered.push({ ...o, node });
      else if (o.kind === 'event') this.events.push({ node, detail: o.detail });
    }
  }

  /** Carries packets and hands received messages to the engines until nothing moves. */
  settle(): void {
    for (;;) {
      let moved = 0;
      for (const e of this.ends.values()) {
        for (const p of drain(e, 0)) {
          moved++;
          const to = this.ends.get(p.destinationID);
          if (to !== undefined) feed(to, { kind: 'packet', packet: wire(p) }, 0);
        }
      }
      for (const [node, e] of this.ends) {
        const fresh = messages(e).slice(this.#taken.get(node));
        this.#taken.set(node, messages(e).length);
        for (const m of fresh) {
          moved++;
          this.input(node, { kind: 'message', from: m.from, bytes: m.bytes, mailbox: m.mailbox });
        }
      }
      if (moved === 0) return;
    }
  }

  refusedOrFailed(): string[] {
    return [...this.ends.values()].flatMap((e) => [...events(e, 'refused').map((r) => `refused ${r.reason}`), ...events(e, 'failed').map((f) => `failed ${f.reason}`)]);
  }

  #end(node: number): End {
    const e = this.ends.get(node);
    if (e === undefined) throw new Error(`no node ${node}`);
    return e;
  }
}

function node(nodeId: number, mailbox: number, extra: Partial<SessionConfig> = {}): SessionConfig {
  return { nodeId, contact: { conveyance: 'type11', mailbox }, protocols: [P], ...extra };
}

function openTx(net: Type11Net, from: number, to: number, protoID = PROTO): StreamRef {
  net.input(from, { kind: 'open', to, protoID, ref: 'x' });
  net.settle();
  const ev = net.events.find((e) => e.node === from && e.detail.event === 'opened');
  assert.ok(ev?.detail.event === 'opened', 'stream opened');
  const s = ev.detail.stream;
  return { remote: s.remote, direction: s.direction, streamID: s.streamID };
}

test('Annex 2 §4.3.1, Part 2 §2.3.1 (decision T2): DATA to a mailbox 4–63 and to a mailbox 0–3 both pass the Type 11 conveyance; the PDU arrives whole', () => {
  for (const mailbox of [5, 63, 2]) {
    const net = new Type11Net([node(1, 1), node(2, mailbox)]);
    const tx = openTx(net, 1, 2);
    const pdu = bytes(3000);
    net.input(1, { kind: 'send', stream: tx, pdu });
    net.settle();
    assert.deepEqual(net.refusedOrFailed(), [], `mailbox ${mailbox}`);
    assert.deepEqual(net.delivered.map((d) => [d.node, d.stream.streamID, Buffer.from(d.pdu).equals(Buffer.from(pdu))]), [[2, tx.streamID, true]]);
  }
});

test('Annex 2 §4.2.9, §4.3.2 (decision E27): USERDEFINED data of whole double-words arrives through the Type 11 conveyance exactly as sent; other lengths are refused by the engine', () => {
  const net = new Type11Net([node(1, 1), node(2, 6, { userDefined: [0xf1] })]);
  const data = bytes(24);
  net.input(1, { kind: 'userdefined', to: 2, cmd: 0xf1, streamID: 7, data });
  net.input(1, { kind: 'userdefined', to: 2, cmd: 0xf1, streamID: 7, data: bytes(13) });
  net.settle();
  const got = net.events.flatMap((e) => (e.detail.event === 'userdefined' && e.detail.message.command === 'USERDEFINED' ? [e.detail.message.userDefinedData] : []));
  assert.deepEqual(got.map((d) => Buffer.from(d).toString('hex')), [Buffer.from(data).toString('hex')]);
  assert.deepEqual(net.events.filter((e) => e.node === 1 && e.detail.event === 'dropped').map((e) => (e.detail.event === 'dropped' ? e.detail.reason : '')), [
    'invalid-userdefined: data of 13 octets is not whole double-words (8 octets each)',
  ]);
  assert.deepEqual(net.refusedOrFailed(), []);
});

test('Annex 2 §7.3.2, decision T20: a Type 11 end point configured for multicast broadcasts by unicast on StreamID 0xF000, which every member receives', () => {
  const eth = (id: number, mailbox: number, extra: Partial<SessionConfig> = {}): SessionConfig => node(id, mailbox, { protocols: [ETH], ...extra });
  const net = new Type11Net([eth(1, 1, { multicast: true }), eth(2, 2), eth(3, 9)]);
  const frame = bytes(100);
  net.input(1, { kind: 'broadcast', frame, members: [2, 3] });
  net.settle();
  assert.deepEqual(net.refusedOrFailed(), []);
  assert.deepEqual(net.delivered.map((d) => [d.node, d.stream.streamID, d.protoID, d.pdu.length]), [[2, 0xf000, 0x0102, 100], [3, 0xf000, 0x0102, 100]]);
  assert.deepEqual(net.events.filter((e) => e.detail.event === 'multicast-unavailable').map((e) => e.node), [1]);
});
