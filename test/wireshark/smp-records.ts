/**
 * Annex 2 session management messages for the dissector comparison: every message the builders of
 * riodp/wire make (Chapter 4), with attributes of every ID range under every ProtoID (§3.5.3,
 * DECISIONS §7), STATUS with a stream's protocol copy or a quoted command (§4.2.8, quoted commands
 * two deep), reserved and undefined values, and a few octets replaced in a quarter of them.
 */
import fc from 'fast-check';
import { attempt } from '../../src/wire/errors.ts';
import {
  smpAccept, smpAdvertise, smpBytes, smpClose, smpData, smpData1, smpData2, smpFlowControl, smpOpen, smpRefuse, smpRequest, smpStatus,
  smpUnknown, smpUserDefined,
} from '../../src/wire/smp/index.ts';
import type { AttributeLike, SmpMessage } from '../../src/wire/smp/index.ts';

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const u16 = int(0xffff);

/** IDs of every Table 3-2 width: the named ones (§3.5.3), the vendor ranges (Table 3-3) and others. */
const ATTRIBUTE_IDS = [
  0x00, 0x01, 0x02, 0x05, 0x78, 0x7f, 0x8001, 0x8002, 0x8003, 0x8004, 0xef00, 0xefff,
  0xf0000000, 0xf0000001, 0xf0000002, 0xf0000003, 0xf0000004, 0xf0000005, 0xf0000006, 0xfe000000, 0xffffffff,
];
/** ProtoIDs: vendor-defined (§6), Ethernet (§7), the protocol list (0xFFFF) and another. */
const protoIdArb = fc.oneof(fc.constantFrom(0x0101, 0x0102, 0xffff), u16);

const attributeArb: fc.Arbitrary<AttributeLike> = fc
  .record({ id: fc.constantFrom(...ATTRIBUTE_IDS), mode: int(4), bytes: fc.uint8Array({ minLength: 7, maxLength: 7 }), pick: int(255) })
  .map(({ id, mode, bytes, pick }) => {
    const n = id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4;
    const value = bytes.slice(0, n);
    // Steer values towards the meanings: OUI and NAME vendors (§3.5.3.1), the message channel
    // (Table 3-8), DATA command formats (Table 3-7), zero reserved octets.
    if (mode === 1) value.fill(0, 3);
    if (mode === 2) value.forEach((b, i) => (value[i] = b === 0 ? 0x41 : b));
    if (mode === 3) {
      value.fill(0);
      value[n - 1] = pick;
    }
    if (mode === 4 && id === 0x8001) value.set([pick & 1 ? 0xff : 0, pick & 2 ? 0x01 : 0], 0);
    if (mode === 4 && id === 0xf0000005) value[3] = [6, 9, 10, 11][pick & 3] as number;
    return { id, value };
  });
const attributesArb = fc.array(attributeArb, { maxLength: 4 });

const baseMessageArb: fc.Arbitrary<SmpMessage> = fc.oneof(
  fc.record({ sourceID: u16, destID: u16, cos: int(255), rsrv: fc.oneof(fc.constant(0), int(255)), protoID: protoIdArb, attributes: attributesArb }).map(smpRequest),
  fc
    .record({ sourceID: u16, destID: u16, s: int(1), a: int(1), protocols: fc.array(fc.record({ protoID: protoIdArb, attributes: attributesArb }), { maxLength: 3 }) })
    .map(smpAdvertise),
  fc.record({ sourceID: u16, protoID: protoIdArb, attributes: attributesArb }).map(smpOpen),
  fc.record({ destID: u16, streamID: u16, cos: int(255), ackType: fc.oneof(fc.constant(0), int(255)), protoID: protoIdArb, attributes: attributesArb }).map(smpAccept),
  fc.record({ destID: u16, nackType: fc.oneof(fc.constant(0), int(255)), fill: fc.oneof(fc.constant(0xffffff), int(0xffffff)), protoID: protoIdArb, attributes: attributesArb }).map(smpRefuse),
  fc.record({ flowControl: fc.oneof(fc.constantFrom(0, 1, 0xff), int(255)), cos: int(255), sourceID: u16, streamID: u16, protoID: protoIdArb }).map(smpFlowControl),
  fc.record({ sourceID: u16, destID: u16, cos: int(255), streamID: u16 }).map(smpClose),
  fc.record({ cmd: fc.integer({ min: 0xf0, max: 0xff }), cos: int(255), sourceID: u16, streamID: u16, userDefinedData: fc.uint8Array({ maxLength: 24 }) }).map(smpUserDefined),
  fc.record({ mailbox: int(255), cos: int(255), sourceID: u16, s: int(1), e: int(1), streamID: u16, pduLength: u16, payload: fc.uint8Array({ maxLength: 40 }) }).map((f) => smpData(f)),
  fc.record({ mailbox: int(255), cos: int(255), sourceID: u16, s: int(1), e: int(1), streamID: u16, pduLength: fc.nat(), payload: fc.uint8Array({ maxLength: 40 }) }).map((f) => smpData1(f)),
  fc.record({ s: int(1), e: int(1), implementationSpecific: int(255), payload: fc.uint8Array({ maxLength: 40 }) }).map(smpData2),
  fc.record({ cmd: fc.constantFrom(0, 0x0b, 0x11, 0x42, 0xef), data: fc.uint8Array({ maxLength: 16 }) }).map(({ cmd, data }) => smpUnknown(cmd, data)),
);

/** Table 4-10 status words: named bits, a reserved bit now and then. */
const statusArb = fc.oneof(
  fc.constantFrom(0x1, 0x2, 0x6, 0xe, 0x10000002, 0x20000001, 0x80000000),
  fc.integer({ min: 0, max: 0xffffffff }).map((s) => (s & 0xf000000f) >>> 0),
  fc.integer({ min: 0, max: 0xffffffff }),
);

function statusOf(quote: fc.Arbitrary<SmpMessage>): fc.Arbitrary<SmpMessage> {
  const head = { cos: int(255), sourceID: u16, streamID: u16, mailbox: int(255), cmdID: fc.oneof(fc.constantFrom(0x03, 0x10), int(255)), cmdVersion: int(2) };
  return fc.oneof(
    fc.record({ ...head, status: statusArb, streamProtocol: fc.record({ protoID: protoIdArb, attributes: attributesArb }) }).map(smpStatus),
    fc.record({ ...head, status: statusArb, quote }).map(smpStatus),
    fc.record({ ...head, status: statusArb, contextSpecificData: int(3).chain((n) => fc.uint8Array({ minLength: 8 * n, maxLength: 8 * n })) }).map(smpStatus),
  );
}

/** Every message, STATUS quoting up to two levels deep. */
export const smpMessageArb: fc.Arbitrary<SmpMessage> = fc.oneof(
  { arbitrary: baseMessageArb, weight: 6 },
  { arbitrary: statusOf(fc.oneof(baseMessageArb, statusOf(baseMessageArb))), weight: 2 },
);

/** The octets of a message, a quarter of them with one or two octets replaced; at most `max` octets. */
export function smpOctetsArb(max: number): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(smpMessageArb, fc.array(fc.tuple(fc.nat(), int(255)), { maxLength: 2 }), int(3))
    .map(([m, edits, mutate]) => {
      const r = attempt(() => smpBytes(m));
      if (!r.ok) return undefined;
      const b = r.value;
      if (mutate === 0) for (const [at, v] of edits) if (b.length > 0) b[at % b.length] = v;
      return b;
    })
    .filter((b): b is Uint8Array => b !== undefined && b.length > 0 && b.length <= max);
}
