import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, baseConfig } from '../../../test/support/switch-element.ts';
import { EF_ID, walkExtendedFeatures } from '../../registers/ef-chain.ts';
import { LpSerialMap, portControlOffset } from '../../registers/port-control.ts';
import { PORT_ERROR_STATUS_BITS, portErrorStatusOffset, portErrorStatusView, portLinkState } from '../../registers/port-error-status.ts';
import { maintenanceReadRequest, maintenanceWriteRequest } from '../../wire/type8-build.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Type8Response } from '../../wire/type8.ts';
import { RouteTable } from './routes.ts';
import { buildSwitchRegisters, setPortLink } from './registers.ts';

const word = (v: number): Uint8Array => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);

function build() {
  const routes = new RouteTable(4, 0xffff, new Map([[1, 1]]), 3);
  return buildSwitchRegisters({ ports: 4, tt: 1, deviceId: 0x50, routes, flowControl: false });
}

function lpBlock(space: ReturnType<typeof build>['space']): number {
  const b = walkExtendedFeatures(space, { strict: true }).blocks.find((x) => x.efId === EF_ID.lpSerialEndpointFree);
  assert.ok(b !== undefined);
  return b.base;
}

test('Part 6 §7.5.3, §7.5.5 Table 7-4: the switch\'s block (EF_ID 0x0003, Register Map I) holds Port n Error and Status CSRs at 0x58 + 0x20·n, next to the Port n Control CSRs at 0x5C + 0x20·n', () => {
  const { space, lpSerialBase } = build();
  assert.equal(lpBlock(space), lpSerialBase);
  for (let n = 0; n < 4; n++) {
    const at = portErrorStatusOffset(lpSerialBase, n);
    assert.equal(at, lpSerialBase + 0x58 + 0x20 * n);
    assert.equal(space.definition(at)?.name, `Port ${n} Error and Status CSR`);
    assert.equal(portControlOffset(lpSerialBase, n, LpSerialMap.I), at + 4);
  }
  // Register Map II: 0x58, 0x98, ..., 0x418 (§7.6.10).
  assert.deepEqual([0, 1, 15].map((n) => portErrorStatusOffset(0, n, LpSerialMap.II)), [0x58, 0x98, 0x418]);
  assert.equal(portErrorStatusOffset(0, 15, LpSerialMap.I), 0x238);
});

test('Part 6 §7.6.10 Table 7-16: Port Uninitialized (bit 31, 0x1) resets to 0b1, Port OK (bit 30, 0x2) to 0b0, every other bit 0b0', () => {
  const { space, lpSerialBase } = build();
  for (let n = 0; n < 4; n++) assert.equal(space.readWord(portErrorStatusOffset(lpSerialBase, n)), 0x00000001);
  assert.deepEqual([PORT_ERROR_STATUS_BITS.portUninitialized, PORT_ERROR_STATUS_BITS.portOk], [0x1, 0x2]);
});

test('Part 6 §7.6.10 Table 7-16: link up ⇒ Port OK, link down ⇒ Port Uninitialized ("This bit and bit 30 are mutually exclusive")', () => {
  const { space, lpSerialBase } = build();
  const at = portErrorStatusOffset(lpSerialBase, 2);
  setPortLink(space, lpSerialBase, 2, true);
  assert.equal(space.readWord(at), 0x2);
  assert.equal(portLinkState(space.readWord(at)), 'ok');
  assert.equal(space.readWord(portErrorStatusOffset(lpSerialBase, 1)), 0x1);
  setPortLink(space, lpSerialBase, 2, false);
  assert.equal(space.readWord(at), 0x1);
  assert.equal(portLinkState(space.readWord(at)), 'uninitialized');
  assert.equal(portLinkState(0), 'other');
  assert.equal(portLinkState(0x3), 'other');
});

test('Part 6 §7.6.10 Table 7-16: Port OK and Port Uninitialized are read-only; reserved bits 5–7, 10, 16–20 read 0 and ignore writes; unsupported enables stay 0', () => {
  const { space, lpSerialBase } = build();
  const at = portErrorStatusOffset(lpSerialBase, 0);
  setPortLink(space, lpSerialBase, 0, true);
  space.write(at, word(0xffffffff & ~PORT_ERROR_STATUS_BITS.portWriteDisabled));
  assert.equal(space.readWord(at), 0x2);
  space.write(at, word(0x1));
  assert.equal(space.readWord(at), 0x2);
  const def = space.definition(at);
  assert.equal(def?.reserved, PORT_ERROR_STATUS_BITS.reserved);
  assert.equal(PORT_ERROR_STATUS_BITS.reserved, 0x0720f800);
});

test('Part 6 §7.6.10 Table 7-16: Port-write Disabled (bit 26) is read/write; the "written with a logic 1 to clear" bits are cleared by a 1', () => {
  const { space, lpSerialBase } = build();
  const at = portErrorStatusOffset(lpSerialBase, 1);
  space.write(at, word(PORT_ERROR_STATUS_BITS.portWriteDisabled));
  assert.equal(portErrorStatusView.unpack(space.readWord(at)).portWriteDisabled, true);
  // The element sets a sticky bit (local path); a MAINTENANCE write of 0 keeps it, of 1 clears it.
  space.writeLocal(at, space.readWord(at) | 0x4 /* bit 29 Port Error */);
  space.write(at, word(PORT_ERROR_STATUS_BITS.portWriteDisabled));
  assert.equal(portErrorStatusView.unpack(space.readWord(at)).portError, true);
  space.write(at, word(0x4));
  const f = portErrorStatusView.unpack(space.readWord(at));
  assert.deepEqual([f.portError, f.portWriteDisabled, f.portUninitialized], [false, false, true]);
});

test('Part 6 §7.6.10 through Part 3 §2.5: a hop_count 0 read of the switch answers each port\'s link state as the element\'s link-up / link-down inputs set it', () => {
  const r = new Rig(baseConfig(), false);
  r.run({ kind: 'link-up', port: 1 });
  const base = r.sw.registers.readWord(0xc) & 0xffff;
  const readAt = (port: number): number => {
    r.send(1, maintenanceReadRequest({ tt: 1, destinationID: 2, sourceID: 1, hopCount: 0, srcTID: 7, byteOffset: portErrorStatusOffset(base, port), byteCount: 4 }));
    const resp = r.drain(1)[0] as Packet as Type8Response;
    const lane = ((portErrorStatusOffset(base, port) >>> 2) & 1) * 4;
    return new DataView(resp.payload.buffer, resp.payload.byteOffset + lane, 4).getUint32(0);
  };
  assert.equal(readAt(1), 0x2);
  assert.equal(readAt(2), 0x1);
  r.run({ kind: 'link-up', port: 2 });
  assert.equal(readAt(2), 0x2);
  r.run({ kind: 'link-down', port: 2 });
  assert.equal(readAt(2), 0x1);
  // A MAINTENANCE write does not fake a link.
  r.send(1, maintenanceWriteRequest({ tt: 1, destinationID: 2, sourceID: 1, hopCount: 0, srcTID: 8, byteOffset: portErrorStatusOffset(base, 2), data: word(0x2) }));
  r.drain(1);
  assert.equal(readAt(2), 0x1);
});
