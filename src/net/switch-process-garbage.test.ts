/**
 * "Bad input is normal input" at the switch process (issue 8 §3; riodp link §4.2): a peer that
 * sends random frames, and one that sends random bytes, neither crash the switch nor disturb the
 * other ports. The frames come from a seeded generator (fast-check, FC_SEED), so a failure repeats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { connect as tcpConnect } from 'node:net';
import { once } from 'node:events';
import { FC_SEED } from '../../test/support/fc.ts';
import { numberOf, numbered, startTestSwitch, threePortSwitch } from '../../test/support/net-peer.ts';
import { FRAME_KIND } from '../wire/frame.ts';

const CONFIG = threePortSwitch();

/** A frame with an honest length and a random body: kinds packet, CS48, CS64, HELLO or reserved (never CLOSE, which would end the link by the rules). */
const frame = fc
  .tuple(fc.constantFrom(FRAME_KIND.packet, FRAME_KIND.packet, FRAME_KIND.cs48, FRAME_KIND.cs64, FRAME_KIND.hello, 0x7e), fc.uint8Array({ minLength: 0, maxLength: 300 }))
  .map(([kind, body]) => {
    const f = new Uint8Array(3 + body.length);
    f[0] = (body.length + 1) >> 8;
    f[1] = (body.length + 1) & 0xff;
    f[2] = kind;
    f.set(body, 3);
    return f;
  });

test('issue 8 §3, riodp link §4.2 (bad input is normal input): 3000 random frames of honest length are dropped and counted one by one; the link stays up and the other ports forward as before', async () => {
  const t = await startTestSwitch(CONFIG, 'silent');
  try {
    const [bad, b, c] = [await t.peer(0), await t.peer(1), await t.peer(2)];
    await t.waitUp(0, 1, 2);
    const frames = fc.sample(frame, { seed: FC_SEED, numRuns: 3000 });
    for (let i = 0; i < frames.length; i += 100) {
      bad.link.socket.write(Buffer.concat(frames.slice(i, i + 100)));
      await new Promise((r) => setImmediate(r));
    }
    await b.send([numbered(2, 3, 7)]);
    await c.waitFor(1);
    assert.deepEqual(c.packets.map(numberOf), [7]);
    const n = t.sw.counters();
    assert.ok(n.malformedFrames > 0, 'random bodies are counted malformed');
    assert.equal(n.linksLost + n.linksClosed, 0, 'no link was ended: every length could be trusted');
    assert.equal(t.sw.ports()[0]?.link, 'open');
  } finally {
    await t.stop();
  }
});

test('issue 8 §3, riodp link §4.1–§4.2: random bytes instead of a HELLO (an oversize length first) end the connection at once, and the port takes a proper peer afterwards', async () => {
  const t = await startTestSwitch(CONFIG, 'silent');
  try {
    const junk = fc.sample(fc.uint8Array({ minLength: 64, maxLength: 2048 }), { seed: FC_SEED, numRuns: 1 })[0] ?? new Uint8Array(64);
    // A first length byte of 0xFF: whatever follows, the length is over the frame limit (§4.2),
    // so the switch ends the connection at once instead of waiting out its HELLO timeout.
    junk[0] = 0xff;
    const raw = tcpConnect({ host: '127.0.0.1', port: t.tcpPort(0) });
    await once(raw, 'connect');
    raw.on('data', () => undefined);
    raw.on('error', () => undefined);
    raw.write(junk);
    await once(raw, 'close');
    // The switch ends its side once it sees the peer's FIN; until then the port is busy (SP1).
    for (let i = 0; i < 500 && t.sw.ports()[0]?.link !== 'none'; i++) await new Promise((r) => setTimeout(r, 2));
    assert.equal(t.sw.ports()[0]?.link, 'none');
    const n = t.sw.counters();
    assert.equal(n.linksOpened, 0, 'the junk never opened a link');
    assert.equal(n.malformedFrames, 1, 'the oversize length, counted');
    assert.equal(n.helloProtocolRefused, 1, 'and the connection refused at its opening (riodp link §4.1)');
    const a = await t.peer(0);
    await t.waitUp(0);
    const c = await t.peer(2);
    await t.waitUp(2);
    await a.send([numbered(1, 3, 1)]);
    await c.waitFor(1);
    assert.deepEqual(c.packets.map(numberOf), [1]);
    assert.ok(t.sw.counters().connections >= 3);
  } finally {
    await t.stop();
  }
});
