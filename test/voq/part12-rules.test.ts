/**
 * Part 12 (rev 4.1) rules for the CS48 stype2 form that the engine tests check only in the seed
 * format: §3.3 VoQ Backpressure per VC and Table 5-3 bits 2 and 11.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VoqGenerator } from '../../src/voq/generator.ts';
import type { CarrierFields } from '../../src/voq/generator-types.ts';
import { Stype0, Stype1 } from '../../src/wire/symbol-types.ts';
import { VoqLink } from '../support/voq-link.ts';

const P12 = { format: 'part12-rev4.1', groupSize: 4 } as const;

test('Part 12 §3.3, Table 5-3 bits 2 and 11 = 0 (round trip): the Port Status aggregates every VC and applies to all VCs, even with a VC_Status or Status carrier', () => {
  const l = new VoqLink({ ...P12, ports: 20, perVcStaging: true, vcs: 8 });
  // Five changes: the unlinked link offers packet-accepted, Status, VC_Status, packet-retry and link-response carriers in turn.
  for (let i = 0; i < 5; i++) {
    const vc = (i * 3) % 9;
    l.congest(10, vc);
    l.flush();
    for (const v of l.vcList()) assert.deepEqual(l.held(v), [10], `congested in vc${vc}: held in vc${v}`);
    l.clear(10, vc);
    l.flush();
    for (const v of l.vcList()) assert.deepEqual(l.held(v), [], `vc${v}`);
  }
  assert.ok(l.delivered.every((m) => m.vc === null));
  assert.equal(l.delivered.length, 10);
});

test('Part 12 §3.3 (round trip): with VoQ Backpressure per VC the upstream device flow-controls just the per-port queue of the VC the VC_Status (or Status, VC0) names', () => {
  const l = new VoqLink({ ...P12, ports: 20, linking: true, vcs: 8 });
  l.congest(9, 0);
  l.congest(17, 6);
  l.flush();
  // Port 9 is group 1 offset 0 (9 ports per group with a 4-bit group field); port 17 group 1 offset 8.
  assert.deepEqual(l.delivered.map((m) => [m.vc, m.group, m.portStatus]), [[0, 1, 0b1], [6, 1, 0b100000000]]);
  assert.deepEqual(l.held(0), [9]);
  assert.deepEqual(l.held(6), [17]);
  for (const vc of [1, 2, 3, 4, 5, 7, 8]) assert.deepEqual(l.held(vc), [], `vc${vc}`);
});

test('Part 12 Table 5-3 bit 11: "When this bit is set for links using Control Symbol 48, VoQ backpressure messages shall only be transmitted with VC_Status and Status control symbols"', () => {
  const g = new VoqGenerator({ format: 'part12-rev4.1', ports: 2, detector: { kind: 'output-queue', high: 2, low: 0 }, portSettings: { generation: true, participation: true, vcLinking: true, txPortGroupSize: 4 }, activeVcs: 1 });
  g.handle({ kind: 'queue-depth', port: 1, vc: 1, depth: 2 }, 0);
  const fill = (symbol: CarrierFields) => g.handle({ kind: 'fill', port: 0, symbol }, 0);
  const refused = fill({ stype0: Stype0.packetAccepted, parameter0: 1, parameter1: 2, stype1: Stype1.startOfPacket, cmd: 0 });
  assert.deepEqual(refused.map((o) => (o.kind === 'event' ? o.name : o.kind)), ['carrier-refused', 'stype2']);
  const nop = refused.find((o) => o.kind === 'stype2');
  assert.ok(nop?.kind === 'stype2');
  assert.equal(nop.stype2, 0);
  assert.equal(nop.message, null);
  const sent = fill({ stype0: Stype0.vcStatus, parameter0: 0, parameter1: 2, stype1: Stype1.nop, cmd: 0 }).find((o) => o.kind === 'stype2');
  assert.ok(sent?.kind === 'stype2');
  assert.deepEqual(sent.message?.congestedPorts, [1]);
  assert.equal(sent.message.vc, 1);
  assert.equal(sent.symbol?.voq?.format, 'part12-rev4.1');
});
