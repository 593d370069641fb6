import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { attempt } from '../../wire/errors.ts';
import { toHex } from '../../wire/hex.ts';
import { decodeSymbol, encodeSymbol } from '../../wire/symbol.ts';
import { decodeSymbol64, encodeSymbol64 } from '../../wire/symbol64.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import { toJsonValue } from '../json/output.ts';
import { InputError } from './input-error.ts';
import { readSymbol, readSymbol64 } from './voq-schema.ts';

/** Both forms of a symbol in a model input line: the same symbol, or the same refusal (docs/model.md "Control symbols"). */

const fields = fc.record({
  stype0: fc.integer({ min: 0, max: 7 }),
  parameter0: fc.integer({ min: 0, max: 63 }),
  parameter1: fc.integer({ min: 0, max: 63 }),
  stype1: fc.integer({ min: 0, max: 7 }),
  cmd: fc.integer({ min: 0, max: 7 }),
  stype2: fc.integer({ min: 0, max: 0x3fff }),
});

function read(value: unknown, format: (typeof VOQ_FORMATS)[number], groupSize: number, lenient: boolean): unknown {
  try {
    return { ok: readSymbol(value, 'symbol', { format, groupSize, lenient }) };
  } catch (e) {
    if (e instanceof InputError) return { refused: true };
    throw e;
  }
}

test('docs/model.md Control symbols (Part 6 Figure 3-2, DECISIONS §2): a CS48 given as hex and as its decode --json object reads the same, or both are refused; nothing but InputError is thrown', () => {
  fc.assert(fc.property(fields, fc.constantFrom(...VOQ_FORMATS), fc.integer({ min: 0, max: 6 }), fc.boolean(), (f, format, groupSize, lenient) => {
    const bytes = new Uint8Array(6);
    encodeSymbol({ link: 'cs48', ...f }, bytes, 0);
    const hex = toHex(bytes);
    const size = format === 'seed' ? 0 : groupSize;
    const fromHex = read(hex, format, size, lenient);
    // The object riodp decode --json prints for it (lenient, so that reserved encodings are printed labelled).
    const printed = attempt(() => decodeSymbol(bytes, 0, 6, { link: 'cs48', voqFormat: format, part12GroupSize: size }));
    assert.ok(printed.ok);
    const fromObject = read(toJsonValue(printed.value), format, size, lenient);
    assert.deepEqual(fromObject, fromHex);
  }), fcParams(10_000));
});

const fields64 = fc.record({
  stype0: fc.oneof(fc.constant(0b1101), fc.integer({ min: 0, max: 15 })),
  parameter0: fc.integer({ min: 0, max: 0xfff }),
  parameter1: fc.integer({ min: 0, max: 0xfff }),
  stype1: fc.integer({ min: 0, max: 0xff }),
});

function read64(value: unknown, groupSize: number, lenient: boolean): unknown {
  try {
    return { ok: readSymbol64(value, 'symbol', { groupSize, lenient }) };
  } catch (e) {
    if (e instanceof InputError) return { refused: true };
    throw e;
  }
}

test('docs/model.md Control symbols (Part 6 Figure 3-3, Part 12 §3.2): a CS64 given as hex and as its decode --link cs64 --json object reads the same, or both are refused; nothing but InputError is thrown', () => {
  fc.assert(fc.property(fields64, fc.integer({ min: 0, max: 6 }), fc.boolean(), (f, groupSize, lenient) => {
    const bytes = new Uint8Array(8);
    encodeSymbol64({ link: 'cs64', ...f }, bytes, 0);
    const fromHex = read64(toHex(bytes), groupSize, lenient);
    const printed = attempt(() => decodeSymbol64(bytes, 0, 8, { part12GroupSize: groupSize }));
    assert.ok(printed.ok);
    assert.deepEqual(read64(toJsonValue(printed.value), groupSize, lenient), fromHex);
  }), fcParams(10_000));
});
