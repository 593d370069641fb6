import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import { type9Node } from '../../../test/support/endpoint-net.ts';
import { sessionOf } from '../../../test/support/sim-session.ts';
import { tmFeature } from '../../../test/support/sim-tm.ts';
import { RATE_LEVEL_PERIOD } from '../../node/endpoint/tm-config.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm-config.ts';
import { FabricEndpoint } from '../../node/fabric-endpoint.ts';
import { DS_CONTROL_OFFSET, DS_INFO_OFFSET, decodeDsControl, decodeDsInfo } from '../../registers/data-streaming.ts';
import { DESTINATION_OPERATIONS_OFFSET, SOURCE_OPERATIONS_OFFSET, OPERATIONS_BITS } from '../../registers/operations.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { maintenanceWriteRequest } from '../../wire/type8-build.ts';
import type { EndpointConfig } from './endpoint-types.ts';

/**
 * Issue 18: a simulated end point that runs traffic management has the Data Streaming and
 * Operations registers a fabric end point with the same `tm` has (built in src/node/endpoint/
 * tm-registers.ts), and a MAINTENANCE write of its TM Mode acts as it does there.
 */

const TM_BITS = OPERATIONS_BITS.dataStreamingTrafficManagement | OPERATIONS_BITS.dataStreaming;

/** What the registers say of traffic management: TM Types, TM Mode, and bits 12–13 of both Operations CARs. */
function tmView(space: RegisterSpace): [number, string, number, number] {
  const csr = decodeDsControl(space.readWord(DS_CONTROL_OFFSET), { strict: true });
  return [csr.tmTypesSupported, csr.tmModeName, space.readWord(SOURCE_OPERATIONS_OFFSET) & TM_BITS, space.readWord(DESTINATION_OPERATIONS_OFFSET) & TM_BITS];
}

function simEndpoint(extra: Partial<EndpointConfig>, b = bench()) {
  return withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, ...extra }).ep;
}

/** A MAINTENANCE write of TM Mode `mode` (0x48 bits 4–7) to end point 1 from node 2 at `at` ps. */
function writeMode(ep: ReturnType<typeof simEndpoint>, mode: number, at: number): void {
  const word = ((tmFeature(ep).registers.readWord(DS_CONTROL_OFFSET) & ~0x0f000000) | (mode << 24)) >>> 0;
  const wire = maintenanceWriteRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 1, byteOffset: DS_CONTROL_OFFSET, data: Uint8Array.of(word >>> 24, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff) });
  ep.receive({ id: at, kind: 'smp', ftype: 8, src: 2, dst: 1, prio: 2, crf: 0, vc: 0, bytes: 24, flow: -1, createdAt: at, wire }, at);
}

const MODES: readonly EndpointTmConfig[] = [{}, { mode: 'RATE' }, { mode: 'CREDIT' }, { mode: 'CREDIT_RATE' }, { mode: 'BASIC', types: 'BASIC_RATE_CREDIT' }, { mode: 'DISABLED', types: 'BASIC' }];

test('Part 10 §5.5.1 Table 5-6 TM Types Supported and TM Mode, §5.4.1–§5.4.2 bit 12: a simulated end point with traffic management (no session management) reads what a fabric end point with the same tm reads', () => {
  for (const tm of MODES) {
    const fabric = new FabricEndpoint({ ...type9Node(1, 0xfff1), tm });
    const sim = tmFeature(simEndpoint({ tm })).registers;
    assert.deepEqual(tmView(sim), tmView(fabric.registers), JSON.stringify(tm));
    assert.equal(tmView(sim)[2], TM_BITS, 'data streaming and its traffic management in the Source Operations CAR');
  }
});

test('Part 10 §5.4.3 Table 5-5, §5.5.1 Table 5-6 MTU: the simulated end point\'s Data Streaming registers say its data path\'s MTU (sarMtu) and SegSupport (sink.reassembler.segSupport), MaxPDU 64K', () => {
  const space = tmFeature(simEndpoint({ tm: {}, sar: true, sarMtu: 64, sink: { reassembler: { segSupport: 4 } } })).registers;
  const info = decodeDsInfo(space.readWord(DS_INFO_OFFSET));
  assert.deepEqual([info.maxPduBytes, info.segContexts, decodeDsControl(space.readWord(DS_CONTROL_OFFSET)).mtuBytes], [65536, 4, 64]);
  const plain = tmFeature(simEndpoint({ tm: {} })).registers;
  assert.deepEqual([decodeDsInfo(plain.readWord(DS_INFO_OFFSET)).segContexts, decodeDsControl(plain.readWord(DS_CONTROL_OFFSET)).mtuBytes], [65536, 256]);
});

test('Part 10 §5.5.1 Table 5-6, Annex 2 §3.2: with session management the end point has one configuration space, its session stack\'s (or a non-participant\'s), and it holds the TM registers', () => {
  for (const session of [{}, { conveyance: 'type9' as const }, { nonParticipants: [1] }]) {
    const ep = simEndpoint({ tm: { mode: 'CREDIT' }, session });
    const space = tmFeature(ep).registers;
    assert.equal(space, sessionOf(ep).registers, JSON.stringify(session));
    assert.deepEqual(tmView(space), [0b1010, 'CREDIT', TM_BITS, TM_BITS], JSON.stringify(session));
  }
});

test('Part 10 §5.5.1 Table 5-6 TM Mode: a MAINTENANCE write of the TM Mode field of a simulated end point switches both engines; a mode its TM types do not support is refused and put back', () => {
  for (const session of [{}, { nonParticipants: [1] }]) {
    const ep = simEndpoint({ tm: { types: 'BASIC_CREDIT' }, session });
    const write = (mode: number, at: number): void => { writeMode(ep, mode, at); };
    write(3, 10);
    const snap = tmFeature(ep).snapshot() as { mode: string; ingress: { mode: { mode: string } }; egress: { mode: { mode: string } } };
    assert.deepEqual([snap.mode, snap.ingress.mode.mode, snap.egress.mode.mode], ['CREDIT', 'CREDIT', 'CREDIT'], JSON.stringify(session));
    assert.equal(tmView(tmFeature(ep).registers)[1], 'CREDIT');
    write(2, 20);
    assert.equal(tmView(tmFeature(ep).registers)[1], 'CREDIT', 'RATE is not in BASIC_CREDIT: refused, the field reads CREDIT again');
    assert.equal((tmFeature(ep).snapshot() as { mode: string }).mode, 'CREDIT');
  }
});

test('Part 10 §5.5.1 Table 5-6 TM Mode, §3.4.5 rule 6 (decision R3): a simulated end point a MAINTENANCE write switches from BASIC to RATE samples its receive queue every configured tm.levelPeriod, or without one every rate-mode default (1 µs); a write of BASIC back ends the sampling', () => {
  for (const [configured, inRate, inBasic] of [[2_000_000, 2_000_000, 2_000_000], [undefined, RATE_LEVEL_PERIOD, 0]] as const) {
    const b = bench();
    const ep = simEndpoint({ tm: { types: 'BASIC_RATE', ...(configured === undefined ? {} : { levelPeriod: configured }) }, session: {} }, b);
    const tm = tmFeature(ep);
    const period = (): unknown => (tm.snapshot() as { levelPeriod: number }).levelPeriod;
    // When the feature's level sample timer is set for.
    const armed: number[] = [];
    const schedule = b.sched.schedule.bind(b.sched);
    b.sched.schedule = (at, target, kind, data) => {
      if (data === 'level') armed.push(at);
      return schedule(at, target, kind, data);
    };
    assert.equal(period(), inBasic);
    writeMode(ep, 2, 10);
    assert.deepEqual([tm.snapshot()['mode'], period()], ['RATE', inRate], String(configured));
    tm.sinkLevel(4, 8, 20);
    assert.deepEqual(armed, [20 + inRate], `${String(configured)}: the receive queue is sampled a period later`);
    writeMode(ep, 1, 30);
    assert.equal(period(), inBasic);
    tm.timer('level', 20 + inRate); // the sample due, as the scheduler runs it: the queue still holds packets
    assert.deepEqual(armed, inBasic === 0 ? [20 + inRate] : [20 + inRate, 20 + inRate + inBasic], `${String(configured)}: BASIC samples only with a configured period`);
  }
});
