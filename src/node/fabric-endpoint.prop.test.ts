import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { recordEndpoint, replay } from '../../test/support/fabric-endpoint.ts';
import type { RecordedEndpoint } from '../../test/support/fabric-endpoint.ts';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport, StreamRef } from '../session/types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { encodePacket, packetLength } from '../wire/packet.ts';
import { makeCcp } from '../wire/type7.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import { stoppableFlow } from './fabric-endpoint-hold.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput } from './fabric-endpoint.ts';
import type { FabricPacket } from './fabric-endpoint-types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

/** Node 1 with streams open to 2 and 3, recorded once and replayed per case. */
function recordSetup(): { readonly rec: RecordedEndpoint; readonly streams: ReadonlyMap<number, StreamRef> } {
  const config: FabricEndpointConfig = { ...type9Node(1, 0xfff1, { protocols: [P], discover: [2, 3] }), heldLimit: 4 };
  const peers = [type9Node(2, 0xfff2, { protocols: [P], discover: [1] }), type9Node(3, 0xfff3, { protocols: [P], discover: [1] })];
  const rec = recordEndpoint(config, peers, [[1, 2], [1, 3]], PROTO);
  return { rec, streams: new Map([[2, rec.streams[0]!], [3, rec.streams[1]!]]) };
}

const SETUP = recordSetup();

/** Node 1 as recorded, with or without gating (decision FE10): the setup took no CCP, so both replay the same log. */
function fresh(gateFlows = true): FabricEndpoint {
  return replay(SETUP.rec, { ...SETUP.rec.config, gateFlows });
}

type Action =
  | { readonly kind: 'send'; readonly to: number; readonly size: number }
  | { readonly kind: 'status'; readonly to: number }
  | { readonly kind: 'read' }
  | { readonly kind: 'ccp'; readonly command: 'XOFF' | 'XON'; readonly tgt: number; readonly flow: FlowIdLabel }
  | { readonly kind: 'pull'; readonly max: number }
  | { readonly kind: 'orphan' }
  | { readonly kind: 'link'; readonly up: boolean };

const dest = fc.constantFrom(2, 3);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('send' as const), to: dest, size: fc.integer({ min: 1, max: 900 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), to: dest }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('ccp' as const), command: fc.constantFrom('XOFF' as const, 'XOFF' as const, 'XON' as const), tgt: dest, flow: fc.constantFrom<FlowIdLabel>('0A', '0B', '0C') }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pull' as const), max: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('link' as const), up: fc.boolean() }) },
);

function packetsOf(out: readonly FabricEndpointOutput[]): FabricPacket[] {
  return out.flatMap((o) => (o.kind === 'packet' ? [o.packet] : []));
}

function drain(e: FabricEndpoint, now: number): FabricPacket[] {
  const got: FabricPacket[] = [];
  for (let i = 0; i < 10_000; i++) {
    const out = e.handle({ kind: 'pull', max: 8 }, now);
    got.push(...packetsOf(out));
    if (out.some((o) => o.kind === 'idle')) return got;
  }
  throw new Error('never idle');
}

/** Packets by (destination, flow), responses apart, each as its encoding. */
function byFlow(ps: readonly FabricPacket[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const p of ps) {
    const key = `${p.destinationID}/${stoppableFlow(p, true) ?? 'response'}`;
    const b = new Uint8Array(packetLength(p));
    encodePacket(p, b, 0);
    const list = m.get(key) ?? [];
    list.push(Buffer.from(b).toString('hex'));
    m.set(key, list);
  }
  return m;
}

function isSubsequence(sub: readonly string[], of: readonly string[]): boolean {
  let i = 0;
  for (const x of of) if (i < sub.length && sub[i] === x) i++;
  return i === sub.length;
}

test('Part 9 §2.4.5, Part 10 §2.4 rule 1, §3.2.4: under any interleaving of XOFF/XON, orphan restarts, pulls and link changes, the packets of each flow leave in the order the session stack made them, none is lost but those link-down discards (counted), and responses are never held; gated at the source (decision FE10), only a packet staged when its flow stopped is held', () => {
  fc.assert(
    fc.property(fc.boolean(), fc.array(action, { minLength: 1, maxLength: 40, size: 'max' }), (gateFlows, actions) => {
      const f = fresh(gateFlows);
      const r = fresh();
      let now = SETUP.rec.t;
      let deadline: number | undefined;
      let tid = 0;
      let linkDowns = 0;
      const sent: FabricPacket[] = [];
      const both = (input: FabricEndpointInput): void => {
        r.handle(input, now);
        const out = f.handle(input, now);
        sent.push(...packetsOf(out));
      };
      const fabricOnly = (input: FabricEndpointInput): void => {
        for (const o of f.handle(input, now)) {
          if (o.kind === 'packet') sent.push(o.packet);
          if (o.kind === 'timer' && o.name === 'ccp:orphan') deadline = o.at ?? undefined;
        }
      };
      actions.forEach((a, i) => {
        switch (a.kind) {
          case 'send':
            both({ kind: 'send', stream: SETUP.streams.get(a.to)!, pdu: octets(a.size, i + 1) });
            break;
          case 'status':
            both({ kind: 'status-query', stream: SETUP.streams.get(a.to)! });
            break;
          case 'read':
            both({ kind: 'packet', packet: maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 2, srcTID: tid++ & 0xff, byteOffset: 0, byteCount: 4 }) });
            break;
          case 'ccp':
            fabricOnly({ kind: 'packet', packet: makeCcp({ destinationID: 1, tgtdestinationID: a.tgt, tt: 1, command: a.command, flowID: a.flow, soc: 0 }) });
            break;
          case 'pull':
            fabricOnly({ kind: 'pull', max: a.max });
            break;
          case 'orphan':
            if (deadline !== undefined) {
              now = Math.max(now, deadline);
              fabricOnly({ kind: 'timer', name: 'ccp:orphan' });
            }
            break;
          case 'link':
            if (!a.up) linkDowns++;
            fabricOnly({ kind: a.up ? 'link-up' : 'link-down' });
            break;
        }
      });
      // A link restart opens every flow: what is still held leaves now.
      fabricOnly({ kind: 'link-up' });
      sent.push(...drain(f, now));
      const want = byFlow(drain(r, now));
      const got = byFlow(sent);
      const c = f.counters().fabric;
      assert.equal(c.held, c.released + c.discarded);
      if (linkDowns === 0) assert.equal(c.discarded, 0);
      let missing = 0;
      for (const [key, list] of want) {
        const mine = got.get(key) ?? [];
        if (linkDowns === 0 || key.endsWith('/response')) assert.deepEqual(mine, list, key);
        else assert.ok(isSubsequence(mine, list), `${key}: out of order or not the session stack's`);
        missing += list.length - mine.length;
      }
      assert.deepEqual([...got.keys()].filter((k) => !want.has(k)), []);
      assert.equal(missing, c.discarded);
      assert.deepEqual(f.flows().filter((fl) => fl.held > 0 || fl.state === 'xoff'), []);
      // Gated, the session stack has one Type 9 packet staged at most, so each XOFF strands one at most.
      const xoffs = actions.filter((a) => a.kind === 'ccp' && a.command === 'XOFF').length;
      if (gateFlows) assert.ok(c.held <= xoffs, `held ${c.held} after ${xoffs} XOFFs`);
      else assert.equal(c.gates, 0);
      assert.deepEqual(f.snapshot()['gated'], []);
    }),
    fcParams(600),
  );
});
