import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { WireError, attempt } from '../errors.ts';
import { toHex } from '../hex.ts';
import {
  ATTRIBUTE_ID,
  canonicalPadLength,
  decodeSmp,
  smpAccept,
  smpAdvertise,
  smpBytes,
  smpClose,
  smpData,
  smpData1,
  smpData2,
  smpFlowControl,
  smpLength,
  smpOpen,
  smpRefuse,
  smpRequest,
  smpStatus,
  smpUnknown,
  smpUserDefined,
} from './index.ts';
import type { AttributeLike, SmpMessage } from './index.ts';

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const u8 = int(0xff);
const u16 = int(0xffff);
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const bytes = (maxLength: number, minLength = 0): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength, maxLength });

/** Any ID of each width (Table 3-2), with the named IDs drawn often so their decoders are exercised. */
const attribute: fc.Arbitrary<AttributeLike> = fc.oneof(
  fc.record({ id: int(0x7f), value: bytes(7, 7) }),
  fc.record({ id: fc.integer({ min: 0x8000, max: 0xefff }), value: bytes(6, 6) }),
  fc.record({ id: fc.integer({ min: 0xf0000000, max: 0xffffffff }), value: bytes(4, 4) }),
  fc.constantFrom(...Object.values(ATTRIBUTE_ID)).chain((id) => bytes(id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4, id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4).map((value) => ({ id, value }))),
);
const attributes = fc.array(attribute, { maxLength: 5 });
const protoID = fc.oneof(fc.constantFrom(0x0101, 0x0102, 0xffff), u16);
/** A pad that decoding keeps (non-canonical), or none. */
const pad = fc.option(bytes(12), { nil: undefined });
const withPad = <T extends object>(m: T, p: Uint8Array | undefined): T => (p === undefined ? m : { ...m, pad: p });

const request = fc
  .record({ ver: u8, sourceID: u16, destID: u16, cos: u8, rsrv: u8, protoID, attributes, pad })
  .map(({ pad: p, ...f }) => withPad(smpRequest(f), p));
const advertise = fc
  .record({
    ver: u8,
    sourceID: u16,
    destID: u16,
    s: int(1),
    a: int(1),
    protocols: fc.array(fc.record({ protoID, attributes }), { maxLength: 4 }),
    pad,
  })
  .map(({ pad: p, ...f }) => withPad(smpAdvertise(f), p));
const open = fc.record({ ver: u8, sourceID: u16, protoID, attributes, pad }).map(({ pad: p, ...f }) => withPad(smpOpen(f), p));
const accept = fc
  .record({ ver: u8, destID: u16, ackType: u8, cos: u8, streamID: u16, protoID, attributes, pad })
  .map(({ pad: p, ...f }) => withPad(smpAccept(f), p));
const refuse = fc
  .record({ ver: u8, destID: u16, nackType: u8, fill: int(0xffffff), protoID, attributes, pad })
  .map(({ pad: p, ...f }) => withPad(smpRefuse(f), p));
const flowControl = fc
  .record({ ver: u8, flowControl: u8, cos: u8, sourceID: u16, streamID: u16, protoID: u16, pad })
  .map(({ pad: p, ...f }) => withPad(smpFlowControl(f), p));
const close = fc
  .record({ ver: u8, sourceID: u16, destID: u16, cos: u8, rsrv: u8, streamID: u16, pad })
  .map(({ pad: p, ...f }) => withPad(smpClose(f), p));
const statusFields = { ver: u8, cos: u8, sourceID: u16, streamID: u16, mailbox: u8, rsrv: u8, cmdID: u8, cmdVersion: u8, status: u32 };
const status = fc.oneof(
  fc
    .record({ ...statusFields, words: fc.array(bytes(8, 8), { maxLength: 4 }), pad })
    .map(({ pad: p, words, ...f }) => withPad(smpStatus({ ...f, contextSpecificData: Uint8Array.from(words.flatMap((w) => [...w])) }), p)),
  fc.record({ ...statusFields, protoID: u16, attributes }).map(({ protoID: pr, attributes: at, ...f }) => smpStatus({ ...f, streamProtocol: { protoID: pr, attributes: at } })),
  fc.record({ ...statusFields, quote: bytes(40) }).map((f) => smpStatus(f)),
);
const userDefined = fc.record({ ver: u8, cmd: fc.integer({ min: 0xf0, max: 0xff }), cos: u8, rsrv: u8, sourceID: u16, streamID: u16, userDefinedData: bytes(24) }).map((f) => smpUserDefined(f));
const dataFields = { ver: u8, mailbox: u8, cos: u8, rsrv: u16, sourceID: u16, s: int(1), e: int(1), streamID: u16, payload: bytes(40), pad };
const data = fc.record({ ...dataFields, rsrv1: int(3), pduLength: u16 }).map(({ pad: p, ...f }) => withPad(smpData(f), p));
const data1 = fc.record({ ...dataFields, rsrv1: u16, pduLength: u32 }).map(({ pad: p, ...f }) => withPad(smpData1(f), p));
const data2 = fc.record({ implementationSpecific: u8, s: int(1), e: int(1), payload: bytes(40), pad }).map(({ pad: p, ...f }) => withPad(smpData2(f), p));
const unknown = fc
  .record({ cmd: fc.constantFrom(0x00, 0x0b, 0x0c, 0x0f, 0x11, 0x7f, 0xef), data: bytes(24) })
  .map((f) => smpUnknown(f.cmd, f.data));

const message: fc.Arbitrary<SmpMessage> = fc.oneof(
  request,
  advertise,
  open,
  accept,
  refuse,
  flowControl,
  close,
  status,
  userDefined,
  data,
  data1,
  data2,
  unknown,
);

/** A generated pad equal to the canonical one decodes as "no pad". */
function normalised(m: SmpMessage): SmpMessage {
  const p = (m as { readonly pad?: Uint8Array }).pad;
  if (p === undefined) return m;
  const fields = smpLength(m) - p.length;
  if (p.length !== canonicalPadLength(fields) || p.some((x) => x !== 0)) return m;
  return Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'pad')) as unknown as SmpMessage;
}

test('Annex 2 Chapter 4: encode→decode is the identity over all field ranges of every message', () => {
  fc.assert(
    fc.property(message, (m) => {
      const b = smpBytes(m);
      assert.equal(b.length, smpLength(m));
      const d = decodeSmp(b, 0, b.length);
      assert.deepStrictEqual(d, normalised(m));
      assert.equal(toHex(smpBytes(d)), toHex(b));
    }),
    fcParams(),
  );
});

/** Random octets, the first often a real command so that every decoder sees them. */
const randomMessage = fc.tuple(fc.oneof(fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x10, 0xf0), u8), bytes(72)).map(([c, rest]) => Uint8Array.of(c, ...rest));

function check(b: Uint8Array): void {
  for (const strict of [false, true]) {
    let m: SmpMessage | undefined;
    try {
      m = decodeSmp(b, 0, b.length, { strict });
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
    }
    // Whatever decodes leniently re-encodes to the same octets.
    if (m !== undefined && !strict) {
      assert.equal(smpLength(m), b.length);
      assert.equal(toHex(smpBytes(m)), toHex(b));
    }
    if (m !== undefined && strict) assert.deepStrictEqual(m, decodeSmp(b, 0, b.length));
  }
}

const VALID = smpBytes(smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 5 }));

test('Annex 2 Chapter 4: random octets never throw anything but WireError, and a valid message still decodes afterwards', () => {
  fc.assert(
    fc.property(randomMessage, (b) => {
      check(b);
      assert.equal(decodeSmp(VALID, 0, VALID.length, { strict: true }).command, 'OPEN');
    }),
    fcParams(),
  );
});

test('Annex 2 Chapter 4: mutated valid messages never throw anything but WireError', () => {
  const mutation = fc.record({ flips: fc.array(fc.tuple(fc.nat(), u8), { minLength: 1, maxLength: 4 }), cut: fc.nat(), extra: bytes(9) });
  fc.assert(
    fc.property(message, mutation, (m, mu) => {
      const good = smpBytes(m);
      const b = Uint8Array.from([...good, ...mu.extra]);
      for (const [at, v] of mu.flips) if (b.length > 0) b[at % b.length] = v;
      check(b);
      check(b.subarray(0, mu.cut % (b.length + 1)));
      const again = attempt(() => decodeSmp(good, 0, good.length));
      assert.ok(again.ok);
      assert.deepStrictEqual(again.value, normalised(m));
    }),
    fcParams(),
  );
});
