import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, baseConfig, message } from '../../../test/support/switch-element.ts';
import { EF_ID, findEfBlocks } from '../../registers/ef-chain.ts';
import { LpSerialMap, PORT_CONTROL_BITS, portControlOffset } from '../../registers/port-control.ts';
import { voqPortOffset } from '../../registers/voq-block.ts';
import type { Packet } from '../../wire/packet.ts';
import { maintenanceWriteRequest } from '../../wire/type8-build.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { congestedPortsOf } from '../../wire/voq-stype2.ts';
import type { SwitchElementConfig, SwitchEvent, SwitchOutput } from './element.ts';

const CONGESTION = { highWatermark: 2, lowWatermark: 0 };
const word = (v: number): Uint8Array => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);

function ccpsOf(ps: readonly Packet[]): Type7Packet[] {
  return ps.filter((p): p is Type7Packet => p.ftype === 7);
}

function ccpEvent(e: SwitchEvent): unknown {
  return e.name === 'ccp-sent' || e.name === 'ccp-dropped' ? { name: e.name, port: e.port, command: e.command, destinationID: e.destinationID, reason: e.reason } : null;
}

/** A MAINTENANCE write with hop_count 0 from the host on port 0, its response pulled away. */
function writeRegister(r: Rig, byteOffset: number, value: number): void {
  r.send(0, maintenanceWriteRequest({ tt: 1, destinationID: 3, sourceID: 0, hopCount: 0, srcTID: 1, byteOffset, data: word(value) }));
  r.drain(0);
}

test('Part 9 Annex A.1, §2.4.6 rule 1, §3.2: an output\'s congestion point sends XOFF back to the source as the queue rises above its high watermark, then XON once it drains to the low one', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, congestion: CONGESTION }));
  r.send(0, message(0, 3));
  r.send(0, message(0, 3));
  assert.equal(r.events('ccp-sent').length, 0);
  const third = r.send(0, message(0, 3));
  assert.deepEqual(third.flatMap((o) => (o.kind === 'event' ? [o.event.name] : [])), ['congestion', 'ccp-sent']);
  assert.deepEqual(third.filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 0 }]);
  // Decision: the points see the output buffers, not the switch's own CCPs (queued apart at port 0).
  const snap = r.sw.snapshot();
  assert.deepEqual([r.sw.occupancy(0), snap.congestion[0]?.occupancy, snap.congestion[3]?.occupancy], [0, 0, 3]);
  const [xoff] = ccpsOf(r.drain(0));
  // §3.2: CCP destinationID = the packets' sourceID, tgtdestinationID = their destinationID, SOC 0 from a switch; §2.4.2 prio 3, CRF 1.
  assert.deepEqual([xoff?.command, xoff?.destinationID, xoff?.tgtdestinationID, xoff?.flowID, xoff?.soc, xoff?.prio, xoff?.crf], ['XOFF', 0, 3, '0A', 0, 3, 1]);
  assert.equal(r.drain(3).length, 3);
  const [xon] = ccpsOf(r.drain(0));
  assert.deepEqual([xon?.command, xon?.destinationID, xon?.tgtdestinationID, xon?.flowID], ['XON', 0, 3, '0A']);
  const c = r.sw.counters();
  assert.deepEqual([c.ccpSent, c.ccpDropped, c.packetsOut, c.forwarded], [2, 0, 5, 3]);
  assert.deepEqual(r.events('congestion').map((e) => (e.name === 'congestion' ? e.detail.name : '')), ['congested', 'decongested']);
});

test('Part 9 §2.4.6 rule 2 (decision): the switch\'s CCPs wait in their own queue, so an XOFF still leaves when the output buffer is full; the congestion point gets no default capacity', () => {
  const r = new Rig(baseConfig({ congestion: { highWatermark: 3, lowWatermark: 1 } }));
  for (let i = 0; i < 4; i++) r.send(0, message(0, 3));
  assert.equal(r.sw.occupancy(3), 4);
  assert.deepEqual(ccpsOf(r.drain(0)).map((p) => p.command), ['XOFF']);
});

test('Part 9 §2.4.6 rule 2 "If a switch runs out of packet buffer space, it is permitted to drop CCPs": beyond ccpQueue the switch\'s CCPs are dropped, counted and reported', () => {
  const r = new Rig(baseConfig({
    routes: { 0: 0, 3: 3, 16: 0, 17: 0 }, outputBuffer: { packets: 8 }, ccpQueue: 1, congestion: { highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' } },
  }));
  r.send(0, message(16, 3));
  r.send(0, message(16, 3));
  r.send(0, message(17, 3));
  assert.deepEqual(r.events().map(ccpEvent).filter((e) => e !== null), [
    { name: 'ccp-sent', port: 0, command: 'XOFF', destinationID: 16, reason: undefined },
    { name: 'ccp-dropped', port: 0, command: 'XOFF', destinationID: 17, reason: 'ccp-queue-full' },
  ]);
  assert.deepEqual([r.sw.counters().ccpSent, r.sw.counters().ccpDropped], [1, 1]);
});

test('Part 9 §2.4.1: a CCP to a source the switch cannot route to is dropped, counted and reported', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, congestion: { highWatermark: 1, lowWatermark: 0 } }));
  r.send(0, message(9, 3));
  r.send(0, message(9, 3));
  assert.deepEqual(r.events().map(ccpEvent).filter((e) => e !== null), [{ name: 'ccp-dropped', port: null, command: 'XOFF', destinationID: 9, reason: 'no-route' }]);
});

test('Part 9 §4.3 Table 4-2: Flow Control Participant 0b0 "Do not route or issue flow control transactions to this port", written by MAINTENANCE', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, congestion: CONGESTION }));
  const base = findEfBlocks(r.sw.registers, EF_ID.lpSerialEndpointFree)[0] ?? -1;
  const offset = portControlOffset(base, 0, LpSerialMap.I);
  assert.notEqual(r.sw.registers.readWord(offset) & PORT_CONTROL_BITS.flowControlParticipant, 0);
  writeRegister(r, offset, (r.sw.registers.readWord(offset) & ~PORT_CONTROL_BITS.flowControlParticipant) >>> 0);
  for (let i = 0; i < 3; i++) r.send(0, message(0, 3));
  assert.deepEqual(r.events().map(ccpEvent).filter((e) => e !== null), [{ name: 'ccp-dropped', port: 0, command: 'XOFF', destinationID: 0, reason: 'not-participant' }]);
  assert.deepEqual(ccpsOf(r.drain(0)), []);
});

test('Part 9 Annex A.1 (configuration): per-port congestion settings put a congestion point only on the outputs configured', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, congestion: [null, null, CONGESTION, null] }));
  for (let i = 0; i < 3; i++) r.send(0, message(0, 3));
  assert.equal(r.events('ccp-sent').length, 0);
  for (let i = 0; i < 3; i++) r.send(0, message(0, 2));
  assert.equal(r.events('ccp-sent').length, 1);
  const s = r.sw.snapshot();
  assert.deepEqual(s.congestion.map((c) => c !== null), [false, false, true, false]);
});

// ---- VoQ backpressure ---------------------------------------------------------------------------

const VOQ: SwitchElementConfig['voq'] = { high: 2, low: 0, generate: [1] };

function symbols(outs: readonly SwitchOutput[]): number[][] {
  return outs.flatMap((o) => (o.kind === 'symbol' && o.symbol.form === 'cs48' ? [congestedPortsOf(o.symbol.stype2)] : []));
}

test('VoQ Backpressure §2.5, §4.2 a, e: a congested output queue sends a VoQ symbol on the upstream ports that enable generation, and the all-clear when it drains', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, voq: VOQ }));
  // §4.2 g: the link coming up resends every group (all clear) first.
  assert.deepEqual(r.kinds('ready'), [{ kind: 'ready', port: 1 }]);
  assert.deepEqual(symbols(r.run({ kind: 'pull', port: 1 })), [[]]);
  r.drain(1);
  r.send(0, message(0, 3));
  const second = r.send(0, message(0, 3));
  assert.deepEqual(second.filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 1 }]);
  const sym = r.run({ kind: 'pull', port: 1 });
  assert.deepEqual(symbols(sym), [[3]]);
  const s = sym.find((o) => o.kind === 'symbol');
  // §4.2 b: carried by a Status control symbol (stype0 0b100) on a CS48 link.
  assert.ok(s?.kind === 'symbol' && s.symbol.form === 'cs48' && s.symbol.symbol.stype0 === 4);
  assert.deepEqual(r.pull(0), { kind: 'idle', port: 0 });
  r.drain(3);
  assert.deepEqual(symbols(r.run({ kind: 'pull', port: 1 })), [[]]);
  assert.equal(r.sw.counters().voqSymbolsSent, 3);
});

test('VoQ Backpressure Table 5-3 bit 8 "0b0 = No VoQ symbols will be transmitted": a MAINTENANCE write turning generation off stops the symbols of that port', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 8 }, voq: VOQ }));
  const base = findEfBlocks(r.sw.registers, EF_ID.voqBackpressure)[0] ?? -1;
  const offset = voqPortOffset(base, 1);
  r.drain(1);
  writeRegister(r, offset, (r.sw.registers.readWord(offset) & ~0x00800000) >>> 0);
  const sends = [...r.send(0, message(0, 3)), ...r.send(0, message(0, 3))];
  assert.deepEqual(sends.filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 3 }]);
  assert.deepEqual(symbols(r.run({ kind: 'pull', port: 1 })), []);
});

test('VoQ Backpressure §4.2 f "may be generated at arbitrary intervals, based on a timer": the refresh timer resends every group; a stale expiry is ignored', () => {
  const r = new Rig(baseConfig({ voq: { ...VOQ, refreshPeriod: 1000 } }));
  assert.deepEqual(r.kinds('timer')[0], { kind: 'timer', name: 'voq:refresh', at: 1000 });
  r.drain(1);
  r.now = 999;
  assert.deepEqual(r.run({ kind: 'timer', name: 'voq:refresh' }), []);
  r.now = 1000;
  const fired = r.run({ kind: 'timer', name: 'voq:refresh' });
  assert.deepEqual(fired.filter((o) => o.kind !== 'ready'), [{ kind: 'timer', name: 'voq:refresh', at: 2000 }]);
  assert.deepEqual(symbols(r.run({ kind: 'pull', port: 1 })), [[]]);
});
