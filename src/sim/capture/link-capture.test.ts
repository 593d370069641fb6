import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainPacketBytes } from '../../node/endpoint/packets.ts';
import type { Type10Packet } from '../../wire/type10.ts';
import { decodePcapng } from '../../wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../../wire/pcapng/record.ts';
import { makeLink } from '../fabric/channel.ts';
import type { LinkSpec, PortRx, PortTx, SimPacket } from '../fabric/types.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { LinkCapture, psToNs } from './link-capture.ts';

const spec: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 1500 };
const doorbell: Type10Packet = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef };

function data(id: number, dst: number): SimPacket {
  return { id, kind: 'data', ftype: 9, src: 1, dst, prio: 0, crf: 0, vc: 0, bytes: plainPacketBytes(100, 0), flow: 5, createdAt: 0, pdu: { id, index: 0, count: 1, bytes: 100 } };
}

test('riodp capture §4: simulated ps become ns rounded down, exactly for any safe integer', () => {
  assert.deepEqual([0, 999, 1000, 1999, 2001].map(psToNs), [0n, 0n, 1n, 1n, 2n]);
  assert.equal(psToNs(Number.MAX_SAFE_INTEGER), 9007199254740n);
});

test('riodp capture §3–§5: a link\'s records on the sender\'s tx when sent and the receiver\'s rx when they arrive, credits as Status symbols, a drop commented', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-linkcap-'));
  try {
    const sched = new Scheduler();
    const queue: SimPacket[] = [data(1, 2), data(2, 9), { ...data(3, 2), ftype: 10, bytes: 12, wire: doorbell }];
    const a: PortTx = { pull: () => queue.shift() ?? null };
    let dropped = 0;
    const bRx: PortRx = {
      receive: (p, now) => {
        if (p.dst !== 2) dropped++;
        link.ab.freed(1, now);
      },
    };
    const link = makeLink(sched, 'l', spec, { tx: a, rx: { receive: () => undefined }, buffers: { packets: 8 } }, { tx: { pull: () => null }, rx: bRx, buffers: { packets: 8 } });
    const path = join(dir, 'l.pcapng');
    const cap = new LinkCapture(
      { path, application: 'riodp test', link: 'l', context: { tt: 0, mtu: 256 } },
      { element: 'a', port: 0 },
      { element: 'b', port: 3, drops: { reasons: ['no route'], read: () => [dropped] } },
      link.ab, link.ba, (f, t) => `${f.element} to ${t.element}`,
    );
    const t0 = 1999;
    sched.schedule(t0, { onEvent: () => { link.ab.kick(t0); } }, 0);
    sched.run();
    const sum = cap.close();
    const file = decodePcapng(readFileSync(path));
    assert.equal(sum.records, file.packets.length);
    assert.deepEqual(file.interfaces.map((i) => [i.name, i.description]), [['a.p0.tx', 'a to b'], ['a.p0.rx', 'b to a'], ['b.p3.tx', 'b to a'], ['b.p3.rx', 'a to b']]);
    const on = (i: number) => file.packets.filter((p) => p.interface === i);
    const T1 = link.ab.packetTime(data(1, 2).bytes);
    const sent = [t0, t0 + T1, t0 + 2 * T1];
    const arrived = [sent[1]! + 1500, sent[2]! + 1500, sent[2]! + link.ab.packetTime(12) + 1500];
    assert.deepEqual(on(0).map((p) => p.timestampNs), sent.map(psToNs));
    assert.deepEqual(on(3).map((p) => p.timestampNs), arrived.map(psToNs));
    assert.deepEqual(on(3).map((p) => [...p.data]), on(0).map((p) => [...p.data]), 'the rx records are the tx records');
    assert.deepEqual(on(0).map((p) => p.direction), ['outbound', 'outbound', 'outbound']);
    assert.deepEqual(on(3).map((p) => p.comments ?? []), [[], ['drop: no route'], []]);
    const packets = on(0).map((p) => decodeCaptureRecord(p.data, 0, p.data.length, { strict: true }));
    const [p1, , p3] = packets.map((r) => (r.kindName === 'packet' ? r.packet : assert.fail(r.kindName)));
    assert.deepEqual(packets.map((r) => (r.kindName === 'packet' ? r.packet.ackID : -1)), [0, 1, 2], 'ackIDs count the packets');
    assert.ok(p1?.ftype === 9 && p1.segment === 'single');
    assert.deepEqual([p1.sourceID, p1.destinationID, p1.streamID, p1.payload.length, p1.payload.every((b) => b === 0)], [1, 2, 5, 100, true]);
    assert.equal(on(0)[0]!.data.length - 3, data(1, 2).bytes, 'the synthesized packet has the modelled size');
    assert.deepEqual(p3, { ...doorbell, ackID: 2, crc: p3?.crc });
    // Credits: a Status symbol per freed buffer, sent as the packet arrives, after its rx record.
    const credits = on(2).map((p) => decodeCaptureRecord(p.data, 0, p.data.length, { strict: true }));
    assert.deepEqual(credits.map((r) => (r.kindName === 'cs48' ? [r.symbol.stype0Name, r.symbol.ackIDStatus, r.symbol.bufStatus, r.symbol.stype1Name] : [])), [
      ['status', 1, 8, 'NOP'], ['status', 2, 8, 'NOP'], ['status', 3, 8, 'NOP'],
    ]);
    assert.deepEqual(on(2).map((p) => p.timestampNs), arrived.map(psToNs));
    assert.deepEqual(on(1).map((p) => p.timestampNs), arrived.map((t) => psToNs(t + link.ba.symbolTime + 1500)));
    const order = file.packets.map((p) => p.interface);
    assert.ok(order.indexOf(3) < order.indexOf(2), 'a packet\'s arrival comes before the credit it frees');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
