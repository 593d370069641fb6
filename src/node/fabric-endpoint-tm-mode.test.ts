import { test } from 'node:test';
import assert from 'node:assert/strict';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import type { FabricNet } from '../../test/support/fabric-endpoint.ts';
import { tmCounters, tmEvents, tmPair, tmWires } from '../../test/support/fabric-tm.ts';
import { DEFAULT_TM_RATE_LEVEL_PERIOD } from './endpoint/tm-config.ts';
import { DS_CONTROL_OFFSET, decodeDsControl, getMtuBytes } from '../registers/data-streaming.ts';
import { TT } from '../wire/header.ts';
import { maintenanceWriteRequest } from '../wire/type8-build.ts';
import type { TmPair } from '../../test/support/fabric-tm.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';

/**
 * Part 10 §5.5.1 Table 5-6 TM Mode (issue 18): a MAINTENANCE write of the TM Mode field of 0x48 of
 * a running fabric end point acts on its traffic management engines, and a mode it cannot run is
 * refused and put back (src/node/endpoint/tm-mode-register.ts).
 */

/** A MAINTENANCE write of 0x48 from the other node: TM Mode `mode` (bits 4–7), MTU `mtu` (4-byte units) or the node's own. */
function writeCsr(net: FabricNet, node: number, mode: number, mtu?: number): void {
  const now = net.node(node).registers.readWord(DS_CONTROL_OFFSET);
  const word = ((now & ~0x0f0000ff) | (mode << 24) | (mtu ?? now & 0xff)) >>> 0;
  const data = Uint8Array.of(word >>> 24, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
  net.input(node, { kind: 'packet', packet: maintenanceWriteRequest({ tt: TT.dev8, destinationID: node, sourceID: node === 1 ? 2 : 1, srcTID: 7, byteOffset: DS_CONTROL_OFFSET, data }) });
  net.settle();
}

const modeOf = (net: FabricNet, node: number): string => decodeDsControl(net.node(node).registers.readWord(DS_CONTROL_OFFSET)).tmModeName;

function send(p: TmPair, pdus: readonly Uint8Array[]): void {
  for (const pdu of pdus) p.net.input(1, { kind: 'send', stream: p.to2, pdu });
  p.net.settle();
}

test('Part 10 §5.5.1 Table 5-6 TM Mode, §3.4.4: a MAINTENANCE write of TM Mode CREDIT to both end points switches their engines from BASIC: PDUs then wait for an ALLOCATE and every one is counted against credit; a write of BASIC switches them back', () => {
  const p = tmPair({ types: 'BASIC_CREDIT' });
  const { net } = p;
  const basic = Array.from({ length: 4 }, (_, i) => octets(500, i + 1));
  send(p, basic);
  assert.equal(tmWires(net, 2, 1).filter((w) => w.packet.tm.message === 'ALLOCATE').length, 0, 'BASIC: no credit');
  for (const n of [1, 2]) {
    writeCsr(net, n, 3);
    assert.equal(modeOf(net, n), 'CREDIT', 'the field reads back the mode written');
    assert.equal(net.node(n).snapshot().tm?.mode, 'CREDIT', `node ${n}: the engines run it`);
    assert.deepEqual(tmEvents(net, n, 'mode').map((e) => e.detail), [{ from: 'BASIC', to: 'CREDIT' }]);
  }
  const credit = Array.from({ length: 8 }, (_, i) => octets(500, i + 10));
  send(p, credit);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [...basic, ...credit], 'every PDU arrives, in order');
  assert.ok(tmWires(net, 2, 1).some((w) => w.packet.tm.message === 'ALLOCATE'), 'the egress allocated credit');
  const e = tmCounters(net, 2).egress;
  assert.deepEqual([e.pdus, e.pdusWithoutCredit], [12, 0], 'every PDU seen; none of those sent in CREDIT without credit');
  assert.ok(tmCounters(net, 1).ingress.allocations >= 1);
  assert.equal(tmCounters(net, 1).ingress.gateViolations, 0);
  for (const n of [1, 2]) writeCsr(net, n, 1);
  assert.deepEqual([modeOf(net, 1), net.node(1).snapshot().tm?.mode], ['BASIC', 'BASIC']);
  const again = [octets(500, 30)];
  send(p, again);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu).at(-1), again[0]);
});

test('Part 10 §3.4.5 Supported Functionality rule 1, §5.5.1 Table 5-6 TM Mode: a write of TM Disabled opens the gate an XOFF closed; the XOFF applies again when BASIC is written back (the engines keep their state)', () => {
  const p = tmPair({});
  const { net } = p;
  net.input(2, { kind: 'tm-command', side: 'egress', to: { peer: 1, cos: 0, streamID: p.to2.streamID, wildcard: 0, mask: 0 }, command: { message: 'XOFF' } });
  net.settle();
  const held = [octets(400, 1), octets(400, 2)];
  send(p, held);
  assert.equal(net.deliveriesTo(2).length, 0, 'XOFF: the stream waits');
  writeCsr(net, 1, 0);
  assert.equal(net.node(1).snapshot().tm?.mode, 'DISABLED');
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), held, 'TM disabled: nothing holds the stream');
  assert.ok(tmEvents(net, 1, 'gate').some((e) => e.detail['reason'] === 'mode' && e.detail['open'] === true));
  writeCsr(net, 1, 1);
  send(p, [octets(400, 3)]);
  assert.equal(net.deliveriesTo(2).length, 2, 'BASIC again: the XOFF kept its queue off');
});

test('Part 10 §3.4.5 rule 4, §5.5.1 Table 5-6 (decision): a TM Mode the end point cannot run (not in TM Types Supported, reserved, user defined, or any but its own without traffic management) is refused: the field reads the mode in force again, the engines keep it, the rest of the write (the MTU) stands', () => {
  const p = tmPair({});
  const { net } = p;
  for (const [mode, why] of [[2, /not supported by TM Types Supported BASIC/], [3, /not supported/], [0b0101, /reserved/], [0b1000, /user-defined/]] as const) {
    writeCsr(net, 1, mode, 0x10);
    assert.equal(modeOf(net, 1), 'BASIC', `0b${mode.toString(2)}`);
    assert.equal(getMtuBytes(net.node(1).registers), 64, 'the MTU written with it acts');
    assert.equal(net.node(1).snapshot().tm?.mode, 'BASIC');
    const refused = tmEvents(net, 1, 'mode-refused').at(-1)?.detail;
    assert.deepEqual([refused?.['written'], refused?.['kept']], [mode, 1]);
    assert.match(String(refused?.['reason']), why);
  }
  assert.equal(tmEvents(net, 1, 'mode').length, 0);
  const none = tmPair(undefined);
  writeCsr(none.net, 1, 1);
  assert.equal(modeOf(none.net, 1), 'DISABLED', 'an end point without traffic management stays TM Disabled');
  assert.match(String(tmEvents(none.net, 1, 'mode-refused')[0]?.detail['reason']), /(not supported|no traffic management)/);
});

test('Part 10 §5.5.1 Table 5-6 (issue 8 §1 configuration): a registers.dataStreaming.tm that disagrees with tm is a configuration error, so that the TM Mode field reads the mode the engines run; one that agrees is taken', () => {
  const base = type9Node(1, 0xfff1);
  assert.throws(() => new FabricEndpoint({ ...base, tm: { mode: 'CREDIT' }, registers: { dataStreaming: { tm: { types: 'BASIC_CREDIT', mode: 'BASIC' } } } }), /^RangeError: registers\.dataStreaming\.tm must agree with tm \(types BASIC_CREDIT, mode CREDIT\)/);
  assert.throws(() => new FabricEndpoint({ ...base, tm: {}, registers: { dataStreaming: { tm: { types: 'BASIC_RATE', mode: 1 } } } }), /must agree with tm/);
  const e = new FabricEndpoint({ ...base, tm: { mode: 'RATE' }, registers: { dataStreaming: { tm: { types: 'BASIC_RATE', mode: 2 } } } });
  assert.equal(decodeDsControl(e.registers.readWord(DS_CONTROL_OFFSET)).tmModeName, 'RATE');
});

/** The sample timer a `tm-level` input of node 2 arms, as ns after now; null: none (the level went to the egress at once). */
function sampleAfter(net: FabricNet, level: number): number | null {
  const t = net.input(2, { kind: 'tm-level', sourceID: 1, cos: 0, level }).find((o) => o.kind === 'timer' && o.name === 'tm:level');
  return t?.kind === 'timer' && t.at !== null ? t.at - net.now : null;
}

test('Part 10 §5.5.1 Table 5-6 TM Mode, §3.4.5 rule 6 (decision R3): after a MAINTENANCE write switches an end point from BASIC to RATE, its egress samples its levels every configured tm.levelPeriod, or without one every rate-mode default; a write of BASIC back gives every change at once again', () => {
  for (const [configured, inRate, inBasic] of [[50_000, 50_000, 50_000], [undefined, DEFAULT_TM_RATE_LEVEL_PERIOD, 0]] as const) {
    const { net } = tmPair({ types: 'BASIC_RATE', ...(configured === undefined ? {} : { levelPeriod: configured }) });
    const what = `levelPeriod ${String(configured)}`;
    assert.equal(net.node(2).snapshot().tm?.levelPeriod, inBasic, what);
    writeCsr(net, 2, 2);
    assert.deepEqual([modeOf(net, 2), net.node(2).snapshot().tm?.mode, net.node(2).snapshot().tm?.levelPeriod], ['RATE', 'RATE', inRate], what);
    assert.equal(sampleAfter(net, 200), inRate, `${what}: the level is sampled a period later`);
    // Empty again: the sample due gives the egress 0 and sampling stops (it goes on while a level is above 0).
    assert.equal(sampleAfter(net, 0), null);
    net.settle();
    assert.equal(net.node(2).snapshot().tm?.levels[0]?.fed, 0);
    writeCsr(net, 2, 1);
    assert.equal(net.node(2).snapshot().tm?.levelPeriod, inBasic, what);
    if (inBasic === 0) {
      assert.equal(sampleAfter(net, 100), null, `${what}: BASIC again, no sampling`);
      assert.equal(net.node(2).snapshot().tm?.levels[0]?.fed, 100, `${what}: the level went to the egress at once`);
    }
  }
});
