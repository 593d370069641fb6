/**
 * issue 17, fast data lane, transmit: `FabricEndpoint.pullInto` against the object `pull`. Two
 * copies of one end point take the same inputs; where one is pulled into a buffer, the other is
 * pulled as objects, each packet encoded as a link frame. Every frame byte, every other output
 * (the `sent` event of each PDU done, `idle`), the counters, the flows and the state must agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { recordEndpoint, replay } from '../../test/support/fabric-endpoint.ts';
import type { RecordedEndpoint } from '../../test/support/fabric-endpoint.ts';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport, StreamRef } from '../session/types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { encodeFrame, frameLength, packetFrame } from '../wire/frame.ts';
import { makeCcp } from '../wire/type7.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput } from './fabric-endpoint.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };
/** Part 10 §3.2.3 MTUs (multiples of 4 from 32 to 256): the ends, and between them, odd word counts. */
const MTUS = [32, 36, 100, 132, 200, 252, 256] as const;

/** Node 1 with streams open, two to node 2 and one to node 3, recorded once per MTU (as fabric-endpoint.prop.test.ts). */
function recordSetup(mtu: number): RecordedEndpoint {
  const type9 = { mtu };
  const config: FabricEndpointConfig = { ...type9Node(1, 0xfff1, { protocols: [P], discover: [2, 3], type9 }), heldLimit: 4 };
  const peers = [type9Node(2, 0xfff2, { protocols: [P], discover: [1], type9 }), type9Node(3, 0xfff3, { protocols: [P], discover: [1], type9 })];
  return recordEndpoint(config, peers, [[1, 2], [1, 3], [1, 2]], PROTO);
}

const SETUPS = new Map<number, RecordedEndpoint>();
function fresh(mtu: number): { readonly e: FabricEndpoint; readonly s: RecordedEndpoint } {
  let s = SETUPS.get(mtu);
  if (s === undefined) {
    s = recordSetup(mtu);
    SETUPS.set(mtu, s);
  }
  return { e: replay(s), s };
}

type Action =
  | { readonly kind: 'send'; readonly stream: number; readonly size: number }
  | { readonly kind: 'pull'; readonly budget: number; readonly offset: number; readonly max: number }
  | { readonly kind: 'status'; readonly stream: number }
  | { readonly kind: 'read' }
  | { readonly kind: 'ccp'; readonly command: 'XOFF' | 'XON'; readonly tgt: number; readonly flow: FlowIdLabel }
  | { readonly kind: 'link'; readonly up: boolean };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('send' as const), stream: fc.integer({ min: 0, max: 2 }), size: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 3000 })) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('pull' as const), budget: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 9000 })), offset: fc.integer({ min: 0, max: 7 }), max: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), stream: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ccp' as const), command: fc.constantFrom('XOFF' as const, 'XON' as const), tgt: fc.constantFrom(2, 3), flow: fc.constantFrom<FlowIdLabel>('0A', '0C') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('link' as const), up: fc.boolean() }) },
);

function hex(b: Uint8Array, from: number, to: number): string {
  return Buffer.from(b.subarray(from, to)).toString('hex');
}

/** The frames of buf[from, to), each as hex (2-byte length, then that many bytes). */
function framesOf(buf: Uint8Array, from: number, to: number): string[] {
  const list: string[] = [];
  for (let at = from; at < to;) {
    const end = at + 2 + (((buf[at] as number) << 8) | (buf[at + 1] as number));
    list.push(hex(buf, at, end));
    at = end;
  }
  return list;
}

/** The object path's packets as the link would frame them, and its other outputs. */
function split(out: readonly FabricEndpointOutput[]): { readonly frames: string[]; readonly rest: FabricEndpointOutput[] } {
  const frames: string[] = [];
  const rest: FabricEndpointOutput[] = [];
  for (const o of out) {
    if (o.kind !== 'packet') {
      rest.push(o);
      continue;
    }
    const f = packetFrame(o.packet);
    const b = new Uint8Array(frameLength(f));
    encodeFrame(f, b, 0);
    frames.push(hex(b, 0, b.length));
  }
  return { frames, rest };
}

/** Two end points driven side by side a case: 100 cases (~2 s), more under `npm run fuzz`. */
const RUNS = Math.max(1, Math.floor(FC_RUNS / 1000));

/** A snapshot without the segmenter's own pull counts: pullInto is one segmenter call where the object path makes one per segment (docs/fast-lane.md §10). */
function state(e: FabricEndpoint): unknown {
  return JSON.parse(JSON.stringify(e.snapshot(), (k, v: unknown) => (k === 'pulls' || k === 'idlePulls') && typeof v === 'number' ? undefined : v)) as unknown;
}

test('issue 17, Part 10 §3.2.4–§3.2.5, Part 6 §2.4.1, Annex 2 §3.7.2: FabricEndpoint.pullInto writes the frames the object pull\'s packets encode to, byte for byte, with the same sent events, idle answers, counters, flows and state; it declines (-1, nothing changed) whenever a response, a read, a high message, a held packet or a stopped flow is about', () => {
  let fast = 0;
  fc.assert(
    fc.property(fc.constantFrom(...MTUS), fc.array(action, { minLength: 1, maxLength: 40 }), (mtu, actions) => {
      const { e: f, s } = fresh(mtu);
      const { e: r } = fresh(mtu);
      const now = s.t;
      let tid = 0;
      const buf = new Uint8Array(9100);
      const both = (input: FabricEndpointInput): void => {
        assert.deepEqual(f.handle(input, now), r.handle(input, now));
      };
      actions.forEach((a, i) => {
        switch (a.kind) {
          case 'send':
            both({ kind: 'send', stream: s.streams[a.stream] as StreamRef, pdu: octets(a.size, i + 1) });
            break;
          case 'status':
            both({ kind: 'status-query', stream: s.streams[a.stream] as StreamRef });
            break;
          case 'read':
            both({ kind: 'packet', packet: maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 2, srcTID: tid++ & 0xff, byteOffset: 0, byteCount: 4 }) });
            break;
          case 'ccp':
            both({ kind: 'packet', packet: makeCcp({ destinationID: 1, tgtdestinationID: a.tgt, tt: 1, command: a.command, flowID: a.flow, soc: 0 }) });
            break;
          case 'link':
            both({ kind: a.up ? 'link-up' : 'link-down' });
            break;
          case 'pull': {
            buf.fill(0xa5);
            const idleBefore = f.counters().endpoint.idlePulls;
            const out: FabricEndpointOutput[] = [];
            const bytes = f.pullInto(buf, a.offset, a.budget, now, out);
            if (bytes < 0) {
              assert.deepEqual(out, []);
              assert.ok(buf.every((x) => x === 0xa5), 'a declined pull writes nothing');
              both({ kind: 'pull', max: a.max });
              break;
            }
            fast++;
            assert.ok(bytes <= a.budget);
            assert.ok(buf.subarray(0, a.offset).every((x) => x === 0xa5) && buf.subarray(a.offset + bytes).every((x) => x === 0xa5), 'nothing written outside the frames');
            const frames = framesOf(buf, a.offset, a.offset + bytes);
            const ranOut = f.counters().endpoint.idlePulls > idleBefore;
            if (frames.length === 0) assert.ok(ranOut, 'a pull that writes nothing is idle');
            const want = split(r.handle({ kind: 'pull', max: frames.length + (ranOut ? 1 : 0) }, now));
            assert.deepEqual(frames, want.frames);
            assert.deepEqual(out, want.rest);
            break;
          }
        }
        assert.deepEqual(f.counters(), r.counters());
        assert.deepEqual(f.flows(), r.flows());
      });
      assert.deepEqual(state(f), state(r));
    }),
    fcParams(RUNS),
  );
  // More than once a case on average.
  assert.ok(fast > RUNS, `the fast path was taken ${fast} times`);
});
