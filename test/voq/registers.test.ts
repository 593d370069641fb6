/**
 * VoQ Backpressure Extended Features block rules (voq-backpressure.txt §5.1, Part 12 §5.1) that
 * the register tests in src/registers/ do not check on their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../../src/registers/builder.ts';
import { EF_ID, findEfBlocks, layoutEfChain, walkEfChain } from '../../src/registers/ef-chain.ts';
import { RegisterKind, RegisterSpace } from '../../src/registers/space.ts';
import { readVoqPortControl, voqBlock, voqPortOffset } from '../../src/registers/voq-block.ts';
import type { VoqFormat } from '../../src/registers/voq-block.ts';

const NONE = { generation: false, reception: false, vc: false } as const;
const ALL = { generation: true, reception: true, vc: true } as const;

test('VoQ Backpressure §5.1.2: a multiport device implements one register per port, even for a port that does not support backpressure (both layouts)', () => {
  for (const format of ['seed', 'part12-rev4.1'] as const satisfies readonly VoqFormat[]) {
    const s = new RegisterSpace();
    const [b] = layoutEfChain(s, [voqBlock({ format, ports: 3, capabilities: (n) => (n === 1 ? NONE : ALL) })]);
    const base = b?.base ?? -1;
    for (let n = 0; n < 3; n++) assert.equal(s.definition(voqPortOffset(base, n, format))?.name, `Port ${n} VoQ Control CSR`, `${format} port ${n}`);
    const none = readVoqPortControl(s, base, 1, format);
    assert.equal(none.voqBackpressureSymbolGenerationSupported, false);
    assert.equal(none.voqBackpressureSymbolReceptionSupported, false);
    assert.equal(s.definition(voqPortOffset(base, 2, format) + 4), undefined, 'no register past the last port');
  }
});

test('VoQ Backpressure §5.1.2.1 Table 5-2 (decision): the block header is EF_PTR (bits 0–15) to the next block and EF_ID 0x000B (bits 16–31), hard wired', () => {
  const s = new RegisterSpace();
  const next = { id: EF_ID.sessionManagement, name: 'next', clause: 't', size: 8, registers: () => [] };
  const [voq, after] = layoutEfChain(s, [voqBlock({ ports: 4 }), next]);
  assert.ok(voq !== undefined && after !== undefined);
  // The seed block with 4 ports is 0x0C + 4·4 = 0x1C bytes, so the next block starts at the next double word: base + 0x20.
  assert.equal(after.base, voq.base + 0x20);
  assert.equal(s.readWord(voq.base), ((after.base << 16) | 0x000b) >>> 0);
  s.writeWord(voq.base, 0xffffffff);
  assert.equal(s.readWord(voq.base), ((after.base << 16) | 0x000b) >>> 0, 'hard wired');
  assert.equal(s.definition(voq.base)?.kind, RegisterKind.csr);
  assert.deepEqual(walkEfChain((o) => s.readWord(o), voq.base).blocks.map((b) => b.efId), [0x000b, EF_ID.sessionManagement]);
});

test('VoQ Backpressure §5.1.1: "The address of a byte in the block is calculated by adding the block byte offset to EF_PTR"', () => {
  const s = new RegisterSpace();
  const [b] = layoutEfChain(s, [voqBlock({ ports: 2 })], 0x200);
  assert.equal(b?.base, 0x200);
  assert.equal(s.definition(0x200 + 0x0c)?.name, 'Port 0 VoQ Control CSR');
  assert.equal(s.definition(0x200 + 0x10)?.name, 'Port 1 VoQ Control CSR');
  assert.equal(voqPortOffset(0x200, 1), 0x210);
});

test('Part 12 §5.1.1 Table 5-1: block offsets 0x4–0x1C are reserved and Port 0 VoQ Control is at EF_PTR + 0x20', () => {
  const s = new RegisterSpace();
  const [b] = layoutEfChain(s, [voqBlock({ format: 'part12-rev4.1', ports: 2 })], 0x100);
  assert.equal(b?.size, 0x20 + 4 * 2);
  for (let off = 0x4; off <= 0x1c; off += 4) {
    assert.equal(s.definition(0x100 + off), undefined, `0x${off.toString(16)}`);
    assert.equal(s.readWord(0x100 + off), 0);
  }
  assert.equal(s.definition(0x120)?.name, 'Port 0 VoQ Control CSR');
  assert.equal(s.definition(0x124)?.name, 'Port 1 VoQ Control CSR');
});

test('VoQ Backpressure §4.1 a: "Implementation of VoQ backpressure is entirely optional": an endpoint built without it has no EF_ID 0x000B block', () => {
  assert.deepEqual(findEfBlocks(buildEndpointRegisters(), EF_ID.voqBackpressure), []);
  assert.equal(findEfBlocks(buildEndpointRegisters({ voq: {} }), EF_ID.voqBackpressure).length, 1);
});

test('VoQ Backpressure §5.1 (decision): the block serves any LP-Serial port with VoQ backpressure, not only devices "supporting virtual channels"', () => {
  const s = buildEndpointRegisters({ voq: { capabilities: { generation: true, reception: true, vc: false } } });
  const [base] = findEfBlocks(s, EF_ID.voqBackpressure);
  assert.ok(base !== undefined);
  const c = readVoqPortControl(s, base, 0);
  assert.ok(c.format === 'seed');
  assert.equal(c.linkingWithVcsSupported, false);
  assert.equal(c.voqBackpressureSymbolGenerationSupported, true);
});
