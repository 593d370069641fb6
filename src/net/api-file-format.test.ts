import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';
import {
  FILE_STATUS, FILE_TRANSFER_PROTO_ID, FILE_TRANSFER_SUPPORT, decodeFileHeader, decodeFileResult, encodeFileHeader, encodeFileResult, safeFileName,
} from './api-file-format.ts';
import type { FileStatusName } from './api-file-format.ts';

const SHA = 'ab'.repeat(32);

test('Annex 2 §6.2: the file-transfer protocol is vendor-defined (ProtoID 0x0101) and named by VENDOR and PROTOCOL_NAME "RIODPFT"; its data is DATA3 (§4.3.4)', () => {
  assert.equal(FILE_TRANSFER_PROTO_ID, 0x0101);
  const ids = FILE_TRANSFER_SUPPORT.attributes.map((a) => a.id);
  assert.deepEqual(ids, [ATTRIBUTE_ID.VENDOR, ATTRIBUTE_ID.PROTOCOL_NAME]);
  const name = FILE_TRANSFER_SUPPORT.attributes[1];
  assert.equal(Buffer.from(name?.value ?? []).toString('latin1'), 'RIODPFT');
  assert.equal(FILE_TRANSFER_SUPPORT.dataHeaderFormat, 'DATA3');
});

test('riodp file transfer: the header is RFT1 | 1 | name length | name | size (64) | SHA-256, byte for byte', () => {
  const b = encodeFileHeader({ name: 'a.b', size: 0x0102030405, sha256: SHA });
  // 'R' 'F' 'T' '1', kind 1, length 3, "a.b", size big-endian in 8 bytes, then the digest.
  assert.equal(Buffer.from(b.subarray(0, 18)).toString('hex'), '52465431' + '01' + '0003' + '612e62' + '0000000102030405');
  assert.equal(Buffer.from(b.subarray(18)).toString('hex'), SHA);
  assert.deepEqual(decodeFileHeader(b), { ok: true, value: { name: 'a.b', size: 0x0102030405, sha256: SHA } });
});

test('riodp file transfer: a header that is cut, too long, not UTF-8 or without the magic is refused with a reason, never thrown', () => {
  const good = encodeFileHeader({ name: 'x', size: 1, sha256: SHA });
  assert.deepEqual(decodeFileHeader(good.subarray(0, good.length - 1)), { ok: false, error: 'header of 47 bytes, expected 48' });
  assert.deepEqual(decodeFileHeader(Uint8Array.of(1, 2, 3)), { ok: false, error: 'not a file header (magic RFT1, kind 1)' });
  const bad = good.slice();
  bad[7] = 0xff;
  assert.deepEqual(decodeFileHeader(bad), { ok: false, error: 'name is not UTF-8' });
  const zero = good.slice();
  zero[6] = 0;
  assert.deepEqual(decodeFileHeader(zero), { ok: false, error: 'name length 0 is not 1..1024' });
  assert.throws(() => encodeFileHeader({ name: '', size: 1, sha256: SHA }), RangeError);
  assert.throws(() => encodeFileHeader({ name: 'x', size: 1, sha256: 'nope' }), RangeError);
});

test('riodp file transfer: the result is RFT1 | 2 | status | text length | text; unknown status values are refused', () => {
  const b = encodeFileResult({ status: 'checksum', text: 'no' });
  assert.equal(Buffer.from(b).toString('hex'), '52465431' + '02' + '01' + '0002' + '6e6f');
  assert.deepEqual(decodeFileResult(b), { ok: true, value: { status: 'checksum', text: 'no' } });
  const odd = b.slice();
  odd[5] = 9;
  assert.deepEqual(decodeFileResult(odd), { ok: false, error: 'status 9 is not one of 0..8' });
});

test('riodp file transfer (decisions EA22, FF5): result statuses are 0 ok, 1 checksum, 2 size, 3 write, 4 header, 5 exists, 6 too-large, 7 aborted, 8 lost, each decoded to its name', () => {
  assert.deepEqual(FILE_STATUS, { ok: 0, checksum: 1, size: 2, write: 3, header: 4, exists: 5, 'too-large': 6, aborted: 7, lost: 8 });
  for (const [name, value] of Object.entries(FILE_STATUS)) {
    const b = encodeFileResult({ status: name as FileStatusName, text: '' });
    assert.equal(b[5], value, name);
    assert.deepEqual(decodeFileResult(b), { ok: true, value: { status: name, text: '' } });
  }
});

test('riodp file transfer (decision): a receiver writes the last path component only; ".", ".." and empty names are refused', () => {
  assert.equal(safeFileName('../../etc/passwd'), 'passwd');
  assert.equal(safeFileName('dir\\file.txt'), 'file.txt');
  assert.equal(safeFileName('..'), undefined);
  assert.equal(safeFileName('a/'), undefined);
  assert.equal(safeFileName('x\0y'), undefined);
});
