import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numberOf, numbered, startTestSwitch, threePortSwitch } from '../../test/support/net-peer.ts';
import type { Peer, TestSwitch } from '../../test/support/net-peer.ts';

/**
 * Backpressure across the switch process over real loopback TCP. The kernel buffers several MB
 * of a connection whose reader has stopped, so a flood of 256-byte messages runs until the switch
 * has actually stopped reading the sender (its `pauses` counter moves), then a few hundred more.
 */
const CONFIG = threePortSwitch({ outputBuffer: { packets: 4, reservePerPriority: 0 } });
/** Enough to fill any loopback buffers several times over; a flood that reaches it fails the test. */
const CAP = 60_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Flood {
  /** Resolves once every packet of the flood has been handed to the sender's link. */
  readonly done: Promise<void>;
  /** How many packets the flood holds in all; known once the switch has paused the sender. */
  total(): number;
}

/** `from` sends numbered messages to `dst` until the switch pauses its input, then `extra` more. */
async function floodUntilPaused(t: TestSwitch, from: Peer, src: number, dst: number, extra: number): Promise<Flood> {
  let sent = 0;
  let stopAt = CAP;
  function* packets(): Generator<ReturnType<typeof numbered>> {
    while (sent < stopAt) yield numbered(src, dst, sent++, 256);
  }
  const done = from.send(packets());
  const deadline = Date.now() + 8000;
  while (t.sw.counters().pauses === 0) {
    if (sent >= CAP || Date.now() > deadline) throw new Error(`${sent} packets sent and the switch never paused the sender`);
    await sleep(5);
  }
  stopAt = sent + extra;
  return { done, total: () => stopAt };
}

test('issue 8 §1 "bounded buffers with backpressure (no loss)": a receiver that stops reading makes the switch stop reading the sender; every packet then arrives, in order', async () => {
  const t = await startTestSwitch(CONFIG, 'info');
  try {
    const [a, b] = [await t.peer(0), await t.peer(1)];
    await t.waitUp(0, 1);
    b.link.pause();
    const flood = await floodUntilPaused(t, a, 1, 2, 300);
    const [p0, p1] = t.sw.ports();
    assert.equal(p0?.paused, true, 'the sender\'s input is paused');
    assert.equal(p1?.waiting, true, 'frames for the receiver wait for its link to drain');
    b.link.resume();
    await flood.done;
    const n = flood.total();
    const got = await b.waitFor(n, 8000);
    assert.equal(got.length, n);
    assert.ok(got.every((p, i) => numberOf(p) === i), 'in order, none missing');
    const c = t.sw.counters();
    assert.deepEqual([c.forwarded, c.holdOverruns, c.portDownDrops, c.sendErrors], [n, 0, 0, 0]);
    assert.ok(c.pauses >= 1 && c.resumes >= 1);
    assert.equal(t.sw.ports()[0]?.paused, false);
  } finally {
    await t.stop();
  }
});

test('issue 8 §3 "a peer killed mid-PDU leaves the rest running": the blocked receiver is destroyed, the switch drops its traffic, resumes the sender, and the port takes a new peer', async () => {
  const t = await startTestSwitch(CONFIG, 'info');
  try {
    const [a, b, c] = [await t.peer(0), await t.peer(1), await t.peer(2)];
    await t.waitUp(0, 1, 2);
    c.link.pause();
    const flood = await floodUntilPaused(t, a, 1, 3, 200);
    c.link.destroy();
    await flood.done;
    await a.send(Array.from({ length: 10 }, (_, i) => numbered(1, 2, i)));
    assert.deepEqual((await b.waitFor(10)).map(numberOf), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const n = t.sw.counters();
    assert.equal(n.linksLost, 1);
    assert.ok(n.portDownDrops > 0);
    assert.equal(n.holdOverruns, 0);
    const down = t.log.find('link-down').find((l) => l['port'] === 2);
    assert.deepEqual([down?.['reason'], down?.['level']], ['lost', 40]);
    assert.equal(t.sw.ports()[2]?.link, 'none');
    const again = await t.peer(2);
    await t.waitUp(2);
    await a.send([numbered(1, 3, 77)]);
    assert.deepEqual((await again.waitFor(1)).map(numberOf), [77]);
  } finally {
    await t.stop();
  }
});

test('issue 8 §1 "Part 9 congestion points sending CCPs": a congested output sends the offending source an XOFF over its TCP link, then an XON; the log shows both', async () => {
  const t = await startTestSwitch({ ...CONFIG, congestion: [null, { highWatermark: 2, lowWatermark: 1 }, null] }, 'info');
  try {
    const [a, b] = [await t.peer(0), await t.peer(1)];
    await t.waitUp(0, 1);
    b.link.pause();
    const flood = await floodUntilPaused(t, a, 1, 2, 50);
    b.link.resume();
    await flood.done;
    await b.waitFor(flood.total(), 8000);
    for (let k = 0; k < 200 && a.packets.length < 2; k++) await sleep(5);
    // Part 9 §2.4.6 rule 1: the CCP goes to the source of the flow (ID 1, routed to port 0) and names the flow's destination.
    const ccps = a.packets.flatMap((p) => (p.ftype === 7 ? [[p.command, p.destinationID, p.tgtdestinationID]] : []));
    assert.deepEqual(ccps, [['XOFF', 1, 2], ['XON', 1, 2]]);
    assert.deepEqual(t.log.find('ccp-sent').map((l) => [l['command'], l['port'], l['level']]), [['XOFF', 0, 30], ['XON', 0, 30]]);
    assert.equal(t.sw.counters().ccpSent, 2);
  } finally {
    await t.stop();
  }
});
