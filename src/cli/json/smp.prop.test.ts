import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { WireError, attempt } from '../../wire/errors.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { decodeSmp, smpBytes } from '../../wire/smp/index.ts';
import { toJsonValue } from './common.ts';
import { smpFromJson } from './smp.ts';

/** Chapter 4 golden vectors (src/wire/smp/*.test.ts) to mutate. */
const SEEDS = [
  '01010012 00340500 01020002 80020000 00000000 80030000 00000000 00000000',
  '02010034 0012c002 01020001 80020000 000005dc 01010002 0000a01e 00000000 0150524f 544f0000',
  '03010012 01020004 f0000003 00000007 80020000 000005dc 80010001 00000002 800300a0 1e010203',
  '05010034 00ffffff 12340002 f0000003 00000007 f0000005 00005a0a 00000000',
  '10010502 00120042 02001001 0000000e 12340001 f0000004 ffff0042 00000000',
  '10010502 00120042 02000701 40000000 07010502 00010002 01020000 00000000',
  '06010205 00000012 00080100 01020304 05060708 00000000',
  '09010205 00000012 00000001 fffffff0 aa000000 00000000',
].map(parseHex);

const octets = fc.oneof(
  fc.tuple(fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x10, 0xf0, 0x42), fc.uint8Array({ maxLength: 64 })).map(([c, rest]) => Uint8Array.of(c, ...rest)),
  fc
    .tuple(fc.constantFrom(...SEEDS), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }))
    .map(([seed, flips]) => {
      const b = Uint8Array.from(seed);
      for (const [at, v] of flips) b[at % b.length] = v;
      return b;
    }),
);

test('docs/cli.md: every message riodp decodes prints as JSON that encodes back to the same octets', () => {
  fc.assert(
    fc.property(octets, (b) => {
      const r = attempt(() => decodeSmp(b, 0, b.length));
      if (!r.ok) return;
      const json: unknown = JSON.parse(JSON.stringify(toJsonValue(r.value)));
      const m = smpFromJson(json);
      assert.equal(toHex(smpBytes(m)), toHex(b));
    }),
    fcParams(FC_RUNS_JSON),
  );
});

test('docs/cli.md: arbitrary JSON objects are rejected with WireError only', () => {
  const value = fc.oneof(fc.integer({ min: -1, max: 70000 }), fc.constantFrom('OPEN', 'XON', 'zz', '00', 'ETHERNET'), fc.boolean());
  const json = fc.dictionary(fc.constantFrom('command', 'cmd', 'sourceID', 'destID', 'streamID', 'protoID', 'protocol', 'flowControlName', 'status', 'payload', 'variant', 's', 'a'), value);
  fc.assert(
    fc.property(json, (j) => {
      try {
        smpBytes(smpFromJson(j));
      } catch (e) {
        if (!(e instanceof WireError)) throw e;
      }
    }),
    fcParams(FC_RUNS_JSON),
  );
});
