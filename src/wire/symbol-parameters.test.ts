import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bufStatusMeaning, causeName, causeOf, portStatusName, portStatusOf, vcOfVcid } from './symbol-parameters.ts';

test('Part 6 §3.4.3 Table 3-8: cause encodings, 0b00000 and 0b01000–0b11110 reserved, 0b11111 general error', () => {
  const named = [1, 2, 3, 4, 5, 6, 7, 31];
  for (let c = 0; c < 32; c++) {
    const name = causeName(c);
    if (named.includes(c)) {
      assert.notEqual(name, 'RESERVED', `cause ${c}`);
      assert.equal(causeOf(name), c);
    } else {
      assert.equal(name, 'RESERVED', `cause ${c}`);
    }
  }
  assert.equal(causeName(0b00001), 'unexpected-ackID');
  assert.equal(causeName(0b00110), 'lack-of-resources');
  assert.equal(causeName(0b11111), 'general-error');
  assert.equal(causeOf('RESERVED'), undefined);
});

test('Part 6 §3.4.7 Table 3-14: port_status 0b00010 Error, 0b00100 Retry-stopped, 0b00101 Error-stopped, 0b10000 OK, others reserved', () => {
  const names = Array.from({ length: 32 }, (_, v) => portStatusName(v));
  assert.deepEqual(
    names.map((n, v) => [v, n]).filter(([, n]) => n !== 'RESERVED'),
    [[2, 'Error'], [4, 'Retry-stopped'], [5, 'Error-stopped'], [16, 'OK']],
  );
  assert.equal(portStatusOf('OK'), 0b10000);
  assert.equal(portStatusOf('nope'), undefined);
});

test('Part 6 §3.4.6 Table 3-12: VCID bits are ignored from the LSB when fewer than 8 VCs are active', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((v) => vcOfVcid(v, 8)), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((v) => vcOfVcid(v, 4)), [1, 1, 3, 3, 5, 5, 7, 7]);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((v) => vcOfVcid(v, 2)), [1, 1, 1, 1, 5, 5, 5, 5]);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((v) => vcOfVcid(v, 1)), [1, 1, 1, 1, 1, 1, 1, 1]);
});

test('Part 6 §3.4 Table 3-4: buf_status 0–29/0–61 buffers, 30/62 at least, 31/63 undefined (relies on retry)', () => {
  assert.deepEqual(bufStatusMeaning(0, 'cs24'), { buffers: 0, atLeast: false });
  assert.deepEqual(bufStatusMeaning(29, 'cs24'), { buffers: 29, atLeast: false });
  assert.deepEqual(bufStatusMeaning(30, 'cs24'), { buffers: 30, atLeast: true });
  assert.equal(bufStatusMeaning(31, 'cs24'), 'retry');
  assert.deepEqual(bufStatusMeaning(31, 'cs48'), { buffers: 31, atLeast: false });
  assert.deepEqual(bufStatusMeaning(62, 'cs48'), { buffers: 62, atLeast: true });
  assert.equal(bufStatusMeaning(63, 'cs48'), 'retry');
});
