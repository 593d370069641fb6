/**
 * Bad input is normal input (riodp engine contract) for the whole end point processing element:
 * whatever a link delivers (any packet the lenient decoder makes of random bytes: Type 7 CCPs,
 * Type 8 maintenance, Type 9 data and TM packets of every operation, Type 11, Type 13, reserved
 * types) and whatever a driver
 * gives (pulls, timers of any name, `tm-level`s out of range, link changes), `FabricEndpoint`
 * answers with outputs, never an exception; with traffic management and without.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { type9Node } from '../../test/support/endpoint-net.ts';
import { WireError } from '../wire/errors.ts';
import { decodePacket } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointInput } from './fabric-endpoint.ts';

/** A packet the lenient decoder makes of random bytes, or null when it makes none. */
function leniently(bytes: Uint8Array): Packet | null {
  try {
    return decodePacket(bytes, 0, bytes.length, { strict: false });
  } catch (e) {
    if (e instanceof WireError) return null;
    throw e;
  }
}

const packetInput: fc.Arbitrary<FabricEndpointInput | null> = fc
  .tuple(fc.integer({ min: 0, max: 15 }), fc.boolean(), fc.uint8Array({ minLength: 8, maxLength: 280 }))
  .map(([ftype, forUs, b]) => {
    // The ftype nibble chosen, so every packet type is reached, not mostly reserved ones; half
    // the packets are for this end point (tt 0, destinationID 1), so they get past the address check.
    b[1] = ((b[1] ?? 0) & (forUs ? 0xc0 : 0xf0)) | ftype;
    if (forUs) b[2] = 1;
    const p = leniently(b);
    return p === null ? null : { kind: 'packet', packet: p };
  });

/**
 * A Type 9 TM packet (xh = 1, xtype 0: Part 10 §4.3 Figure 4-5) with random fields, for this end
 * point: a TM packet has one length (8-bit IDs: 12 bytes), which random lengths seldom hit.
 */
const tmInput: fc.Arbitrary<FabricEndpointInput | null> = fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => {
  b[1] = ((b[1] ?? 0) & 0xc0) | 9;
  b[2] = 1;
  b[5] = ((b[5] ?? 0) & 0b1100_0011) | 0b100;
  const p = leniently(b);
  return p === null ? null : { kind: 'packet', packet: p };
});

const driverInput: fc.Arbitrary<FabricEndpointInput> = fc.oneof(
  fc.constant<FabricEndpointInput>({ kind: 'pull' }),
  fc.constantFrom<FabricEndpointInput>({ kind: 'link-up' }, { kind: 'link-down' }),
  fc.constantFrom('ccp:orphan', 'tm:level', 'tm:rate:0', 'tm:nonsense', 'session:retry', 'whatever').map((name) => ({ kind: 'timer', name }) as FabricEndpointInput),
  fc.record({ sourceID: fc.integer({ min: -2, max: 0x1_0000 }), cos: fc.integer({ min: -1, max: 300 }), level: fc.integer({ min: -5, max: 400 }) }).map((r): FabricEndpointInput => ({ kind: 'tm-level', ...r })),
);

/** TM commands with fields in and out of range, and messages that do not exist (TmCommandInput). */
const commandInput: fc.Arbitrary<FabricEndpointInput> = fc
  .record({
    side: fc.constantFrom('ingress', 'egress'),
    node: fc.integer({ min: 0, max: 3 }),
    streamID: fc.integer({ min: -1, max: 0x1_0000 }),
    cos: fc.integer({ min: -1, max: 256 }),
    wildcard: fc.integer({ min: -1, max: 8 }),
    mask: fc.integer({ min: -1, max: 256 }),
    message: fc.constantFrom('Q_STATUS', 'RELINQUISH', 'XOFF', 'XON', 'REDUCE', 'INCREASE', 'DOUBLE', 'MAINTAIN', 'ALLOCATE', 'RETIRE', 'USER_DEFINED', 'APPLICATION_DEFINED', 'NONSENSE'),
    rate: fc.constantFrom('average', 'peak', 'other'),
    a: fc.integer({ min: -1, max: 300 }),
    b: fc.integer({ min: -1, max: 300 }),
  })
  .map((r) => {
    const command = { message: r.message, rate: r.rate, amount: r.a, credits: r.a, allocationUnit: r.b, tmOp: r.a, value: r.b, parameter1: r.a, parameter2: r.b };
    const input = r.side === 'ingress'
      ? { kind: 'tm-command', side: r.side, stream: { remote: r.node, direction: 'tx', streamID: r.streamID }, command }
      : { kind: 'tm-command', side: r.side, to: { peer: r.node, cos: r.cos, streamID: r.streamID, wildcard: r.wildcard, mask: r.mask }, command };
    // Deliberately outside the declared types: a driver may pass anything.
    return input as unknown as FabricEndpointInput;
  });

const input = fc.oneof({ weight: 3, arbitrary: packetInput }, { weight: 2, arbitrary: tmInput }, { weight: 2, arbitrary: driverInput }, { weight: 1, arbitrary: commandInput });

for (const tm of [undefined, { mode: 'BASIC' as const }, { mode: 'CREDIT_RATE' as const }]) {
  test(`riodp engine contract, issue 8 §3 (bad input is normal input): FabricEndpoint ${tm === undefined ? 'without tm' : `with tm ${tm.mode}`} answers any packet and driver input with outputs, never an exception`, () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 40 }), (inputs) => {
        const e = new FabricEndpoint({ ...type9Node(1, 0xfff1, { discover: [2] }), ...(tm === undefined ? {} : { tm }) });
        let now = 0;
        e.handle({ kind: 'link-up' }, now);
        for (const i of inputs) {
          if (i === null) continue;
          now += 1000;
          assert.ok(Array.isArray(e.handle(i, now)));
        }
        assert.ok(Array.isArray(e.handle({ kind: 'pull' }, now + 1)));
      }),
      fcParams(Math.max(1, Math.floor(FC_RUNS / 200))),
    );
  });
}
