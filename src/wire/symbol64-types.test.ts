import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STYPE0_64_NAMES, STYPE1_64_NAMES, Stype0_64, Stype1_64, parametersOf64, stype1Name64, stype1Of64, writeMeanings64 } from './symbol64-types.ts';
import type { ParameterMeanings64 } from './symbol64-types.ts';

test('Part 6 §3.4 Table 3-3: CS64 stype0 encodings 0b0000–0b1111', () => {
  assert.deepEqual(
    STYPE0_64_NAMES.map((n, i) => `${i.toString(2).padStart(4, '0')} ${n}`),
    [
      '0000 packet-accepted', '0001 packet-retry', '0010 packet-not-accepted', '0011 timestamp',
      '0100 status', '0101 VC_status', '0110 link-response', '0111 implementation-defined',
      '1000 RESERVED', '1001 RESERVED', '1010 RESERVED', '1011 loop-response',
      '1100 RESERVED', '1101 VoQ-backpressure', '1110 RESERVED', '1111 RESERVED',
    ],
  );
  assert.equal(Stype0_64.loopResponse, 0b1011);
  assert.equal(Stype0_64.voqBackpressure, 0b1101);
});

test('Part 6 §3.5 Table 3-18: CS64 stype1 encodings; every other value below 0x80 is reserved', () => {
  const named = Array.from({ length: 0x80 }, (_, v) => [v, stype1Name64(v)] as const).filter(([, n]) => n !== 'RESERVED');
  assert.deepEqual(named, [
    [0x08, 'stomp'],
    [0x10, 'end-of-packet-unpadded'],
    [0x11, 'end-of-packet-padded'],
    [0x18, 'restart-from-retry'],
    [0x22, 'link-request/reset-port'],
    [0x23, 'link-request/reset-device'],
    [0x24, 'link-request/port-status'],
    [0x28, 'multicast-event'],
    [0x29, 'secondary-multicast-event'],
    [0x2b, 'loop-timing-request'],
    [0x38, 'NOP'],
  ]);
  assert.equal(Stype1_64.nop, 0x38);
});

test('Part 6 §3.5.1 Table 3-19: stype1 0b10 ‖ ackID[0:5] is start-of-packet-unpadded and 0b11 ‖ ackID[0:5] start-of-packet-padded', () => {
  for (let ack = 0; ack < 64; ack++) {
    assert.equal(stype1Name64(0x80 | ack), 'start-of-packet-unpadded');
    assert.equal(stype1Name64(0xc0 | ack), 'start-of-packet-padded');
    assert.equal(stype1Of64('start-of-packet-padded', ack), 0xc0 | ack);
  }
});

test('Part 6 §3.5 Table 3-18: stype1 names map back to their values; RESERVED and unknown names to none', () => {
  for (const name of STYPE1_64_NAMES) {
    const v = stype1Of64(name);
    if (name === 'RESERVED') assert.equal(v, undefined);
    else assert.equal(stype1Name64(v as number), name);
  }
  assert.equal(stype1Of64('port-status'), undefined);
});

test('Part 6 §3.4 Table 3-3: the raw parameters follow back from their meanings for every stype0 that has meanings', () => {
  const cases: [number, number, number][] = [
    [Stype0_64.packetAccepted, 0xabc, 4093],
    [Stype0_64.packetRetry, 1, 4095],
    [Stype0_64.packetNotAccepted, 7, (0b1010101 << 5) | 6],
    [Stype0_64.timestamp, 0xfff, 0x123],
    [Stype0_64.status, 0, 0],
    [Stype0_64.vcStatus, 0xfff, 9],
    [Stype0_64.linkResponse, 0x800, 0xfff],
    [Stype0_64.loopResponse, 0x3e8, 0x001],
  ];
  for (const [stype0, p0, p1] of cases) {
    const m: ParameterMeanings64 = {};
    writeMeanings64(m, stype0, p0, p1, false, 0);
    assert.deepEqual(parametersOf64(stype0, m), { parameter0: p0, parameter1: p1 }, `stype0 ${stype0}`);
  }
  assert.deepEqual(parametersOf64(Stype0_64.implementationDefined, {}), {});
});
