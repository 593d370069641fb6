import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cs48Frame, encodeFrame, frameLength } from '../wire/frame.ts';
import { KEEPALIVE_SYMBOL, isStatusOnly } from './keepalive.ts';

test('Part 6 §6.5.3.2, Table 3-10 (decision FF1): the keepalive is a CS48 status symbol, ackID_status 0, buf_status 63, stype1 NOP', () => {
  const f = cs48Frame(KEEPALIVE_SYMBOL);
  const bytes = new Uint8Array(frameLength(f));
  encodeFrame(f, bytes, 0);
  // length 0x0007, kind 0x02 (CS48); body: stype0 100 | parameter0 000000 | parameter1 111111 |
  // stype1 111 | cmd 000 | stype2 0 (14 bits) | CRC-13: 1000 0000 0111 1111 1100 0000 0000 0... → 80 7f c0 00 + CRC.
  assert.equal(Buffer.from(bytes).toString('hex'), '000702807fc0000a35');
});

test('decision FF1: only a CS48 status symbol with stype1 NOP and stype2 0 is a keepalive', () => {
  assert.equal(isStatusOnly(KEEPALIVE_SYMBOL), true);
  assert.equal(isStatusOnly({ link: 'cs48', stype0: 4, stype1: 7, stype2: 0 }), true);
  assert.equal(isStatusOnly({ ...KEEPALIVE_SYMBOL, stype2: 3 }), false, 'a VoQ message rides on it');
  assert.equal(isStatusOnly({ ...KEEPALIVE_SYMBOL, stype1: 0 }), false, 'start-of-packet');
  assert.equal(isStatusOnly({ ...KEEPALIVE_SYMBOL, stype0: 0 }), false, 'packet-accepted');
  assert.equal(isStatusOnly({ link: 'cs64', stype0: 4, stype1: 0x38 }), false, 'CS64 goes to the application');
});
