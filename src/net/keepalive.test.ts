import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { cs48Frame, encodeFrame, frameLength } from '../wire/frame.ts';
import { KEEPALIVE_SYMBOL, isStatusOnly, startKeepalive } from './keepalive.ts';

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

test('decision FF1: the keepalive tick reads the frames sent through one accessor, and sends a status symbol in every idle period, none in a busy one', () => {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    let frames = 0;
    let reads = 0;
    const symbols: unknown[] = [];
    const link = {
      state: 'open',
      writable: true,
      get framesOut(): number {
        reads++;
        return frames;
      },
      sendSymbol(s: unknown): boolean {
        symbols.push(s);
        frames++;
        return true;
      },
    };
    const timer = startKeepalive(link, 100);
    mock.timers.tick(100); // the first look only notes the count
    assert.equal(symbols.length, 0);
    for (let i = 0; i < 5; i++) mock.timers.tick(100);
    assert.equal(symbols.length, 5, 'one keepalive per idle period');
    assert.ok(symbols.every((s) => s === KEEPALIVE_SYMBOL));
    assert.equal(reads, 1 + 2 * 5, 'one read per look, one more after each keepalive');
    for (let i = 0; i < 5; i++) {
      frames++; // traffic in every period
      mock.timers.tick(100);
    }
    assert.equal(symbols.length, 5, 'none while busy');
    clearInterval(timer);
  } finally {
    mock.timers.reset();
  }
});
