import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { bytes, single } from '../../../test/support/type9-segments.ts';
import { FrameBatch } from '../../wire/frame-batch.ts';
import { encodeFrame, frameLength, packetFrame } from '../../wire/frame.ts';
import { toHex } from '../../wire/hex.ts';
import type { Packet } from '../../wire/packet.ts';
import { encodeSerialPacket, serialPacketLength } from '../../wire/packet.ts';
import { ReceivedBytes } from '../../wire/received-bytes.ts';
import { SwitchElement } from './element.ts';
import type { SwitchElementConfig, SwitchOutput } from './element.ts';

/**
 * Equivalence of the switch element's fast lane (`handleFrames`, BatchPacket) with its packet
 * input (issue 17: "the same traffic through the object path and the batch path … compare every
 * output byte and every defect report"). Two elements of one configuration get the same chunks
 * of Type 9 frames on random ports, one packet by packet (a driver that stops reading at
 * `input-paused` and goes on at `input-resumed`, as switch-process.ts does), the other a run at a
 * time; random pulls in between. Every pull must answer the same bytes (or idle), every event and
 * counter must match, and each input must stop at the same frame. Congestion points (which read
 * the transport type from the decoded packet, built lazily on the fast lane) and source filters
 * are drawn too.
 */
const PORTS = 4;
/** Runs the fast lane stopped before their end (an input had to wait): the property must meet some. */
let stops = 0;

type Action =
  | { readonly kind: 'chunk'; readonly port: number; readonly packets: readonly { dst: number; src: number; prio: number; crf: number; n: number }[] }
  | { readonly kind: 'pull'; readonly port: number };

const seg = fc.record({ dst: fc.nat(5), src: fc.nat(4), prio: fc.nat(3), crf: fc.nat(1), n: fc.integer({ min: 1, max: 120 }) });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('chunk' as const), port: fc.nat(PORTS - 1), packets: fc.array(seg, { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('pull' as const), port: fc.nat(PORTS - 1) }),
);

const setup = fc.record({
  packets: fc.integer({ min: 1, max: 6 }),
  inputBuffer: fc.integer({ min: 1, max: 4 }),
  congestion: fc.boolean(),
  filter: fc.boolean(),
});

/** One driver: the element, what each port has read but not delivered, what it answered. */
interface Driver {
  readonly sw: SwitchElement;
  readonly pending: Packet[][];
  readonly log: string[];
  readonly paused: boolean[];
}

function record(d: Driver, out: readonly SwitchOutput[]): number[] {
  const resumed: number[] = [];
  for (const o of out) {
    if (o.kind === 'input-paused') d.paused[o.port] = true;
    else if (o.kind === 'input-resumed') {
      d.paused[o.port] = false;
      resumed.push(o.port);
    } else if (o.kind === 'packet') {
      const w = o.wire instanceof ReceivedBytes ? o.wire.bytes.subarray(o.wire.start, o.wire.end) : serial(o.packet);
      d.log.push(`send ${o.port} ${toHex(w)}`);
    } else if (o.kind === 'forward') d.log.push(`send ${o.port} ${toHex(o.packet.chunk.subarray(o.packet.start, o.packet.end))}`);
    else if (o.kind === 'idle' || o.kind === 'symbol') d.log.push(`${o.kind} ${o.port}`);
    else if (o.kind === 'event') d.log.push(`event ${JSON.stringify(o.event)}`);
  }
  return resumed;
}

function serial(p: Packet): Uint8Array {
  const b = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, b, 0);
  return b;
}

/** The object lane: packet inputs one at a time until the port pauses. */
function deliverObjects(d: Driver, port: number, now: number): void {
  const q = d.pending[port] as Packet[];
  while (q.length > 0 && d.paused[port] !== true) {
    const p = q.shift() as Packet;
    const b = serial(p);
    const resumed = record(d, d.sw.handle({ kind: 'packet', port, packet: p, octets: b.length, wire: new ReceivedBytes(b, 0, b.length) }, now));
    for (const r of resumed) if (r !== port) deliverObjects(d, r, now);
  }
}

/** The fast lane: the pending packets as one chunk of frames, one handleFrames, the rest kept. */
function deliverFrames(d: Driver, port: number, now: number, batch: FrameBatch): void {
  const q = d.pending[port] as Packet[];
  if (q.length === 0 || d.paused[port] === true) return;
  const frames = q.map((p) => packetFrame(p));
  const chunk = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
  frames.reduce((at, f) => encodeFrame(f, chunk, at), 0);
  batch.parse(chunk);
  const out: SwitchOutput[] = [];
  const taken = d.sw.handleFrames(port, batch, chunk, 0, batch.count, now, out);
  if (taken < batch.count) stops++;
  q.splice(0, taken);
  const resumed = record(d, out);
  for (const r of resumed) if (r !== port) deliverFrames(d, r, now, batch);
  if (!isPaused(d, port)) deliverFrames(d, port, now, batch);
}

/** Read afresh: `record` changes it behind the narrowing of `d.paused[port]`. */
function isPaused(d: Driver, port: number): boolean {
  return d.paused[port] === true;
}

test('issue 17, Part 6 §6.11 rule 3, issue 8 §1 (decision FL1): the switch element forwards Type 9 frames taken from a batch exactly as the same packets handed over one by one: same bytes on every pull, same events, counters and pauses, with and without congestion points and source filters', () => {
  fc.assert(fc.property(setup, fc.array(action, { maxLength: 60 }), (s, actions) => {
    const config: SwitchElementConfig = {
      deviceId: 0x50, ports: PORTS, routes: { 0: 0, 1: 1, 2: 2, 3: 3 },
      inputBuffer: { packets: s.inputBuffer, reservePerPriority: 0 }, outputBuffer: { packets: s.packets, reservePerPriority: 0 },
      ...(s.congestion ? { congestion: { highWatermark: 1, lowWatermark: 0 } } : {}),
      ...(s.filter ? { portConfig: [{ accept: [0, 1] }] } : {}),
    };
    const make = (): Driver => ({ sw: new SwitchElement(config), pending: Array.from({ length: PORTS }, () => []), log: [], paused: new Array<boolean>(PORTS).fill(false) });
    const obj = make();
    const fast = make();
    const batch = new FrameBatch({ capacity: 8 });
    let now = 0;
    for (let p = 0; p < PORTS; p++) for (const d of [obj, fast]) record(d, d.sw.handle({ kind: 'link-up', port: p }, now));
    let id = 0;
    for (const a of actions) {
      now++;
      if (a.kind === 'pull') {
        const ro = record(obj, obj.sw.handle({ kind: 'pull', port: a.port }, now));
        for (const r of ro) deliverObjects(obj, r, now);
        const rf = record(fast, fast.sw.handle({ kind: 'pull', port: a.port }, now));
        for (const r of rf) deliverFrames(fast, r, now, batch);
      } else {
        const packets = a.packets.map((x) => single(bytes(x.n, id++ & 0xff), id & 0xffff, { tt: 1, destinationID: x.dst, sourceID: x.src, prio: x.prio, crf: x.crf }));
        (obj.pending[a.port] as Packet[]).push(...packets);
        (fast.pending[a.port] as Packet[]).push(...packets);
        deliverObjects(obj, a.port, now);
        deliverFrames(fast, a.port, now, batch);
      }
      assert.deepEqual(fast.pending.map((q) => q.length), obj.pending.map((q) => q.length), 'each input stops at the same frame');
    }
    assert.deepEqual(fast.log, obj.log);
    assert.deepEqual(fast.sw.counters(), obj.sw.counters());
    assert.deepEqual(fast.paused, obj.paused);
  }), fcParams(1500));
  assert.ok(stops > 100, `only ${stops} runs stopped early`);
});
