import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STYPE0_NAMES,
  STYPE1_NAMES,
  Stype0,
  Stype1,
  bufStatusMeaning,
  causeName,
  causeOf,
  cmdName,
  cmdOf,
  parameterBits,
  portStatusName,
  portStatusOf,
  vcOfVcid,
} from './symbol-types.ts';

test('Part 6 §3.3: parameter0/parameter1 are 5 bits in CS24 and 6 bits in CS48', () => {
  assert.equal(parameterBits('cs24'), 5);
  assert.equal(parameterBits('cs48'), 6);
});

test('Part 6 §3.4 Table 3-2: stype0 encodings 0b000–0b111', () => {
  assert.deepEqual(
    STYPE0_NAMES.map((n, i) => `${i.toString(2).padStart(3, '0')} ${n}`),
    [
      '000 packet-accepted',
      '001 packet-retry',
      '010 packet-not-accepted',
      '011 timestamp',
      '100 status',
      '101 VC_status',
      '110 link-response',
      '111 implementation-defined',
    ],
  );
  assert.equal(Stype0.vcStatus, 0b101);
  assert.equal(Stype0.linkResponse, 0b110);
});

test('Part 6 §3.5 Table 3-17: stype1 encodings, 0b110 reserved and 0b111 NOP', () => {
  assert.deepEqual([...STYPE1_NAMES], ['start-of-packet', 'stomp', 'end-of-packet', 'restart-from-retry', 'link-request', 'timing', 'RESERVED', 'NOP']);
  assert.equal(Stype1.reserved, 0b110);
  assert.equal(Stype1.nop, 0b111);
});

test('Part 6 §3.5 Table 3-17: delimiters, restart-from-retry and NOP define cmd 0b000 only', () => {
  for (const [stype1, name] of [[0, 'start-of-packet'], [1, 'stomp'], [2, 'end-of-packet'], [3, 'restart-from-retry'], [7, 'NOP']] as const) {
    assert.equal(cmdName(stype1, 0), name);
    for (let cmd = 1; cmd <= 7; cmd++) assert.equal(cmdName(stype1, cmd), 'RESERVED', `stype1 ${stype1} cmd ${cmd}`);
  }
  for (let cmd = 0; cmd <= 7; cmd++) assert.equal(cmdName(6, cmd), 'RESERVED');
});

test('Part 6 §3.5.5 Table 3-23: link-request cmd 0b010 reset-port, 0b011 reset-device, 0b100 port-status, others reserved', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((c) => cmdName(4, c)),
    ['RESERVED', 'RESERVED', 'reset-port', 'reset-device', 'port-status', 'RESERVED', 'RESERVED', 'RESERVED'],
  );
});

test('Part 6 §3.5.6 Table 3-24: timing cmd 0b000 multicast-event, 0b001 secondary multicast-event, 0b011 loop-timing request', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((c) => cmdName(5, c)),
    ['multicast-event', 'secondary-multicast-event', 'RESERVED', 'loop-timing-request', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED'],
  );
});

test('Part 6 §3.5 Table 3-17: cmd names map back to their values under their stype1 only', () => {
  assert.equal(cmdOf(4, 'port-status'), 4);
  assert.equal(cmdOf(5, 'loop-timing-request'), 3);
  assert.equal(cmdOf(7, 'NOP'), 0);
  assert.equal(cmdOf(5, 'port-status'), undefined);
  assert.equal(cmdOf(4, 'RESERVED'), undefined);
});

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
