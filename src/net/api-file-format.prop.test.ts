import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { FILE_STATUS, decodeFileHeader, decodeFileResult, encodeFileHeader, encodeFileResult } from './api-file-format.ts';
import type { FileStatusName } from './api-file-format.ts';

const STATUS = Object.keys(FILE_STATUS) as FileStatusName[];

test('riodp file transfer: encode→decode is the identity for every header and result', () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }),
      fc.maxSafeNat(),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.constantFrom(...STATUS),
      fc.string({ maxLength: 40 }),
      (name, size, digest, status, text) => {
        const h = { name, size, sha256: Buffer.from(digest).toString('hex') };
        assert.deepEqual(decodeFileHeader(encodeFileHeader(h)), { ok: true, value: h });
        assert.deepEqual(decodeFileResult(encodeFileResult({ status, text })), { ok: true, value: { status, text } });
      },
    ),
    fcParams(20_000),
  );
});

test('riodp file transfer: decoding any bytes (random, or a mutated header) never throws', () => {
  const good = encodeFileHeader({ name: 'file.bin', size: 1000, sha256: '00'.repeat(32) });
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 }), (bytes, at, v) => {
      const m = good.slice();
      m[at] = v;
      for (const b of [bytes, m]) {
        const h = decodeFileHeader(b);
        const r = decodeFileResult(b);
        assert.equal(typeof h.ok, 'boolean');
        assert.equal(typeof r.ok, 'boolean');
      }
    }),
    fcParams(20_000),
  );
});
