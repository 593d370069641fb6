import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { layoutEfChain } from '../registers/ef-chain.ts';
import { RegisterSpace } from '../registers/space.ts';
import { updateVoqPortControl, voqBlock } from '../registers/voq-block.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import { generatorConfigFromRegisters, portControlInput, resolveGeneratorConfig } from './generator-config.ts';
import type { VoqGeneratorConfig } from './generator-types.ts';

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;

function block(ports: number, format: VoqFormat = 'seed', vc = false): { space: RegisterSpace; base: number } {
  const space = new RegisterSpace();
  const [p] = layoutEfChain(space, [voqBlock({ ports, format, capabilities: { generation: true, reception: true, vc } })]);
  return { space, base: p?.base ?? 0 };
}

test('VoQ Backpressure §5.1.2.2 Table 5-3: the engine reads bits 8–11 of every port register (seed layout)', () => {
  const { space, base } = block(3, 'seed', true);
  updateVoqPortControl(space, base, 0, 'seed', { enableVoqSymbolGeneration: true, enableVcLinking: true });
  updateVoqPortControl(space, base, 2, 'seed', { enableVoqParticipation: true, portXoff: true });
  const config = generatorConfigFromRegisters(space, { detector: OQ }, { blockBase: base });
  assert.equal(config.ports, 3);
  assert.deepEqual(config.portSettings, [
    { generation: true, participation: false, portXoff: false, vcLinking: true, txPortGroupSize: 0 },
    { generation: false, participation: false, portXoff: false, vcLinking: false, txPortGroupSize: 0 },
    { generation: false, participation: true, portXoff: true, vcLinking: false, txPortGroupSize: 0 },
  ]);
  const g = new VoqGenerator(config);
  assert.deepEqual(g.pending(0), [{ group: 0, vc: 0, reason: 'change' }], 'port 2 reports Port XOFF to linked link 0 in VC0');
});

test('Part 12 §5.1.2.2 Table 5-3: the engine reads generation, participation, Port XOFF, per-VC and TX Port Group Size (0x20 + 4n)', () => {
  const { space, base } = block(2, 'part12-rev4.1', true);
  updateVoqPortControl(space, base, 1, 'part12-rev4.1', { txPortGroupSize: 4, enableVoqBackpressurePerVcTransmission: true });
  updateVoqPortControl(space, base, 1, 'part12-rev4.1', { enableVoqSymbolGeneration: true });
  const config = generatorConfigFromRegisters(space, { detector: OQ }, { blockBase: base, format: 'part12-rev4.1' });
  assert.equal(config.format, 'part12-rev4.1');
  assert.deepEqual((config.portSettings as readonly object[])[1], { generation: true, participation: false, portXoff: false, vcLinking: true, txPortGroupSize: 4 });
});

test('VoQ Backpressure §5.1.2: a single port end point implements the port 0 register only', () => {
  const space = buildEndpointRegisters({ ports: 1, voq: {} });
  const config = generatorConfigFromRegisters(space, { detector: OQ });
  assert.equal(config.ports, 1);
  const g = new VoqGenerator(config);
  assert.deepEqual(g.settings(0), { generation: false, participation: false, portXoff: false, vcLinking: false, txPortGroupSize: 0 });
  assert.equal(g.settings(1), undefined);
});

test('VoQ Backpressure §5.1.2.2: a register write reaches the engine as a port-control input', () => {
  const { space, base } = block(2);
  const g = new VoqGenerator(generatorConfigFromRegisters(space, { detector: OQ }, { blockBase: base }));
  updateVoqPortControl(space, base, 0, 'seed', { enableVoqSymbolGeneration: true });
  updateVoqPortControl(space, base, 1, 'seed', { enableVoqParticipation: true });
  // Link 0 starts generating: its one group is due (restated to the upstream device).
  assert.deepEqual(g.handle(portControlInput(space, 0, { blockBase: base }), 0), [{ kind: 'symbol-wanted', port: 0, group: 0, vc: null }]);
  g.handle({ kind: 'next-stype2', port: 0, stype0: 0 }, 0);
  const out = g.handle(portControlInput(space, 1, { blockBase: base }), 0);
  assert.deepEqual(out, []);
  const c = g.handle({ kind: 'queue-depth', port: 1, depth: 4 }, 0);
  assert.deepEqual(c, [{ kind: 'symbol-wanted', port: 0, group: 0, vc: null }]);
});

test('VoQ Backpressure §5.1 (decision): without a block base the first EF_ID 0x000B block is used, and its absence is a RangeError', () => {
  assert.throws(() => generatorConfigFromRegisters(new RegisterSpace(), { detector: OQ }), /^RangeError: blockBase must be given/);
  const space = buildEndpointRegisters({ ports: 4, voq: {} });
  assert.equal(generatorConfigFromRegisters(space, { detector: OQ }).ports, 4);
});

test('VoQ Backpressure Table 5-3 (decision): config defaults are the register reset values', () => {
  const c = resolveGeneratorConfig({ ports: 2, detector: OQ });
  assert.deepEqual(c.portSettings[1], { generation: false, participation: false, portXoff: false, vcLinking: false, txPortGroupSize: 0 });
  assert.equal(c.format, 'seed');
  assert.equal(c.refreshPeriod, null);
  assert.equal(c.resendOnLinkRecovery, true);
  assert.equal(c.activeVcs, 0);
});

test('VoQ Backpressure §5.1.1 Table 5-1: configuration is checked field by field (RangeError naming the field)', () => {
  const bad: [Partial<VoqGeneratorConfig>, RegExp][] = [
    [{ ports: 0 }, /^RangeError: ports must be an integer from 1 to 192$/],
    [{ ports: 193 }, /ports must be an integer from 1 to 192/],
    [{ format: 'part12-rev4.1', ports: 257 }, /ports must be an integer from 1 to 256/],
    [{ format: 'rev3' as never }, /format must be 'seed' or 'part12-rev4.1'/],
    [{ refreshPeriod: 0 }, /refreshPeriod must be a positive integer or null/],
    [{ activeVcs: 3 as never }, /activeVcs must be 0, 1, 2, 4 or 8/],
    [{ resendOnLinkRecovery: 1 as never }, /resendOnLinkRecovery must be a boolean/],
    [{ portSettings: { txPortGroupSize: 7 } }, /portSettings.txPortGroupSize must be an integer from 0 to 6/],
    [{ portSettings: [{}, { portXoff: 'on' as never }] }, /portSettings\[1\].portXoff must be a boolean/],
    [{ ports: 1, portSettings: [{}, {}] }, /portSettings must have at most 1 entries/],
    [{ detector: undefined as never }, /detector must be a detector configuration/],
  ];
  for (const [patch, re] of bad) assert.throws(() => new VoqGenerator({ ports: 12, detector: OQ, ...patch }), re);
  assert.equal(new VoqGenerator({ ports: 256, format: 'part12-rev4.1', detector: OQ }).settings(255)?.generation, false);
});
