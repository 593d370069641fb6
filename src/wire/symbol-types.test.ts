import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STYPE0_NAMES, STYPE1_NAMES, Stype0, Stype1, cmdName, cmdOf, parameterBits } from './symbol-types.ts';

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
