import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../kernel/scheduler.ts';
import { makeLink } from './channel.ts';
import { dataRate, packetWireBytes, packetWireTime, symbolBytes, wireTime } from './link-rate.ts';
import type { LinkSpec, PortRx, PortTx, SimPacket, SimSymbol } from './types.ts';

const x1: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };

function packet(id: number, prio: 0 | 1 | 2 | 3 = 0, bytes = 24): SimPacket {
  return { id, kind: 'data', ftype: 9, src: 1, dst: 2, prio, crf: 0, vc: 0, bytes, flow: 0, createdAt: 0 };
}

class Source implements PortTx {
  readonly queue: SimPacket[] = [];
  readonly symbols: SimSymbol[] = [];
  pull(_now: number, free: number, reserve: number): SimPacket | null {
    const i = this.queue.findIndex((p) => free > (3 - p.prio) * reserve);
    return i < 0 ? null : (this.queue.splice(i, 1)[0] ?? null);
  }
  onSymbol(s: SimSymbol): void {
    this.symbols.push(s);
  }
}

class Sink implements PortRx {
  readonly got: [number, number][] = [];
  receive(p: SimPacket, now: number): void {
    this.got.push([p.id, now]);
  }
}

test('issue 7 §2 links: wire time is exact for every lane count, baud rate and coding', () => {
  // 1x 1.25 Gbaud 8b/10b = 1 Gbit/s: 8000 ps per octet.
  assert.equal(wireTime(x1, 1), 8000);
  assert.equal(wireTime({ ...x1, lanes: 4, baud: 3.125 }, 10), 8000);
  // 16x 25.78125 Gbaud 64b/67b: 8000 × 67 / (64 × 16 × 25.78125) ps per octet = 20.303… → 1000 octets 20304 ps (rounded up).
  assert.equal(wireTime({ lanes: 16, baud: 25.78125, encoding: '64b67b', propagation: 0 }, 1000), 20304);
  assert.equal(dataRate({ lanes: 4, baud: 6.25, encoding: '8b10b', propagation: 0 }), 20e9);
  assert.throws(() => makeLink(new Scheduler(), 'l', { ...x1, baud: 1 }, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }), /baud/);
});

test('issue 7 §2 links: packets take their wire time plus a delimiter, then the propagation delay', () => {
  const s = new Scheduler();
  const a = new Source();
  const b = new Sink();
  const link = makeLink(s, 'l', { ...x1, propagation: 5000 }, { tx: a, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: b, buffers: { packets: 8 } });
  a.queue.push(packet(1), packet(2));
  link.ab.kick(0);
  s.run();
  // (24 + 8) octets × 8000 ps = 256000 ps each (the delimiter is a CS48 and its two special
  // characters, decision L3), back to back.
  assert.deepEqual(b.got, [[1, 261_000], [2, 517_000]]);
});

test('issue 7 §2 links never lose packets: a packet waits for a credit, which returns one symbol time plus propagation after the buffer is freed', () => {
  const s = new Scheduler();
  const a = new Source();
  const freeing: PortRx = {
    receive(p, now) {
      got.push([p.id, now]);
      // The receiver empties the buffer 1 µs later.
      s.schedule(now + 1_000_000, { onEvent: (_k, _d, t) => { link.ab.freed(1, t); } }, 0);
    },
  };
  const got: [number, number][] = [];
  const link = makeLink(s, 'l', { ...x1, propagation: 1000 }, { tx: a, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: freeing, buffers: { packets: 4, reservePerPriority: 1 } });
  for (let i = 1; i <= 4; i++) a.queue.push(packet(i, 3));
  link.ab.kick(0);
  s.run();
  // Four buffers: packets 1–4 go at once (prio 3 needs more than 0 free).
  assert.deepEqual(got.map(([id]) => id), [1, 2, 3, 4]);
  assert.equal(link.ab.free, 4);
  const s2 = new Scheduler();
  const a2 = new Source();
  const got2: [number, number][] = [];
  const slow: PortRx = {
    receive(p, now) {
      got2.push([p.id, now]);
      s2.schedule(now + 1_000_000, { onEvent: (_k, _d, t) => { link2.ab.freed(1, t); } }, 0);
    },
  };
  const link2 = makeLink(s2, 'l', { ...x1, propagation: 1000 }, { tx: a2, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: slow, buffers: { packets: 4, reservePerPriority: 1 } });
  // Priority 0 needs more than 3 free buffers: one packet in flight at a time.
  a2.queue.push(packet(1), packet(2));
  link2.ab.kick(0);
  s2.run();
  // Packet 1 arrives at 257000; buffer freed at 1257000; the credit symbol (a CS48 and its two
  // delimiters, 8 characters = 64000 ps) arrives at 1322000; packet 2 then takes 256000 + 1000.
  assert.deepEqual(got2, [[1, 257_000], [2, 1_579_000]]);
  assert.equal(link2.ba.stats.symbols, 2);
});

test('issue 7 §2: a transmitter that breaks the priority buffer rule is a modelling error', () => {
  const s = new Scheduler();
  const rogue: PortTx = { pull: () => packet(1, 0) };
  const link = makeLink(s, 'l', x1, { tx: rogue, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 3, reservePerPriority: 0 } });
  link.ab.kick(0);
  assert.throws(() => { s.run(); }, /priority 0 packet pulled/);
});

test('Part 6 §6.5.2: a CS48 on an 8b/10b link is "delimited by two 8b/10b special characters": 8 characters per credit and per packet delimiter', () => {
  assert.equal(symbolBytes(x1), 8);
  assert.equal(symbolBytes({ ...x1, symbol: 'cs48' }), 8);
  const link = makeLink(new Scheduler(), 'l', x1, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } });
  // 1 Gbit/s: 8000 ps per character.
  assert.equal(link.ab.symbolTime, 64_000);
  assert.equal(link.ab.packetTime(24), (24 + 8) * 8000);
  assert.equal(packetWireBytes(x1, 24), 24);
});

test('Part 6 §6.5.2, §5.8: a CS64 on a 64b/67b link has no delimiting and fills half of each of two control codewords: 8 octets', () => {
  const x4: LinkSpec = { lanes: 4, baud: 10.3125, encoding: '64b67b', propagation: 0 };
  assert.equal(symbolBytes(x4), 8);
  assert.equal(symbolBytes({ ...x4, symbol: 'cs64' }), 8);
  const link = makeLink(new Scheduler(), 'l', x4, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } });
  // 8 octets × 8000 × 67/64 ps / (4 × 10.3125): 8 × 8_576_000 / (4 × 10560) = 1624.24… → 1625 ps.
  assert.equal(link.ab.symbolTime, 1625);
  assert.equal(link.ab.symbolTime, wireTime(x4, 8));
});

test('Part 6 §5.6: on a 64b/67b link a packet carries a 4-byte link CRC-32 and is padded with 4 bytes of 0x00 to a multiple of 8 bytes', () => {
  const x1c3: LinkSpec = { lanes: 1, baud: 25.78125, encoding: '64b67b', propagation: 0 };
  // 20 + 4 = 24; 24 + 4 = 28 → 32; 28 + 4 = 32; the 284-byte maximum + 4 = 288 ("288 bytes is an integer multiple of 8 bytes").
  assert.deepEqual([20, 24, 28, 284].map((b) => packetWireBytes(x1c3, b)), [24, 32, 32, 288]);
  const link = makeLink(new Scheduler(), 'l', x1c3, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } });
  // A 24-byte packet: 32 octets with its CRC-32 and pad, plus its 8-octet CS64 start-of-packet.
  assert.equal(link.ab.packetTime(24), wireTime(x1c3, 32 + 8));
  assert.equal(packetWireTime(x1c3, 24), wireTime(x1c3, 40));
});

test('Part 6 §6.5.2, §4.10 (decision L3): a CS64 on an 8b/10b link takes two delimiting special characters (10), a CS48 on a 64b/67b link two half codewords (8); no column fill between packets', () => {
  assert.equal(symbolBytes({ ...x1, symbol: 'cs64' }), 10);
  assert.equal(symbolBytes({ lanes: 1, baud: 25.78125, encoding: '64b67b', propagation: 0, symbol: 'cs48' }), 8);
  assert.equal(packetWireTime({ ...x1, symbol: 'cs64' }, 24), (24 + 10) * 8000);
  // Part 6 §4.10: the next packet or delimited symbol starts in a lane K with K mod 4 = 0, so on
  // an 8x link a 20-octet packet and its 8-character delimiter (28 characters, 3.5 columns) are
  // not padded to whole columns while more follows; the column fill of an idle link is not charged.
  const x8: LinkSpec = { ...x1, lanes: 8 };
  assert.equal(packetWireTime(x8, 20), wireTime(x8, 28));
  assert.equal(packetWireTime(x8, 20), 28_000);
});

test('Part 6 §6.9.2: a port "shall not report a greater number" of buffers than it has: credits beyond the receiver\'s buffers are a modelling error', () => {
  const s = new Scheduler();
  const link = makeLink(s, 'l', x1, { tx: new Source(), rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: new Sink(), buffers: { packets: 4 } });
  link.ab.freed(1, 0);
  assert.throws(() => { s.run(); }, /credits exceed the receiver's buffers/);
});

test('issue 7 §2 links: a kick from inside the transmitter\'s pull does not start a second packet on a busy wire', () => {
  const s = new Scheduler();
  const b = new Sink();
  // A transmitter that, like an end point feature reacting to the packet being pulled, queues
  // another packet and kicks the channel while the pull is still running.
  const a = new Source();
  const reentrant: PortTx = {
    pull(now, free, reserve) {
      const p = a.pull(now, free, reserve);
      if (p !== null && p.id === 1) {
        a.queue.push(packet(2));
        link.ab.kick(now);
      }
      return p;
    },
  };
  const link = makeLink(s, 'l', x1, { tx: reentrant, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: b, buffers: { packets: 8 } });
  a.queue.push(packet(1));
  link.ab.kick(0);
  s.run();
  // Back to back, never overlapping: 256000 ps each.
  assert.deepEqual(b.got, [[1, 256_000], [2, 512_000]]);
  assert.equal(link.ab.stats.packets, 2);
});

test('issue 7 §2 links: a packet made sendable during an empty pull is sent at once', () => {
  const s = new Scheduler();
  const b = new Sink();
  const a = new Source();
  let pulls = 0;
  const lateReady: PortTx = {
    pull(now, free, reserve) {
      pulls++;
      if (pulls === 1) {
        a.queue.push(packet(7));
        link.ab.kick(now);
        return null;
      }
      return a.pull(now, free, reserve);
    },
  };
  const link = makeLink(s, 'l', x1, { tx: lateReady, rx: new Sink(), buffers: { packets: 8 } }, { tx: new Source(), rx: b, buffers: { packets: 8 } });
  link.ab.kick(0);
  s.run();
  assert.deepEqual(b.got, [[7, 256_000]]);
});
