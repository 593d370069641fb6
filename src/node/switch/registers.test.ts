import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPONENT_TAG_OFFSET } from '../../registers/component-tag.ts';
import { EF_ID, walkExtendedFeatures } from '../../registers/ef-chain.ts';
import { DESTINATION_OPERATIONS_OFFSET, SOURCE_OPERATIONS_OFFSET } from '../../registers/operations.ts';
import { PE_FEATURES_OFFSET, peFeaturesView } from '../../registers/pe-features.ts';
import { LpSerialMap, portControlOffset, portControlView } from '../../registers/port-control.ts';
import { STANDARD_OFFSETS, baseDeviceIdView } from '../../registers/standard.ts';
import { readVoqPortControl } from '../../registers/voq-block.ts';
import { NO_ROUTE, RouteTable } from './routes.ts';
import { SWITCH_OFFSETS, buildSwitchRegisters, isFlowControlParticipant, setAccessPort, switchPortInformationView } from './registers.ts';
import type { SwitchRegisterOptions } from './registers.ts';

const word = (v: number): Uint8Array => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);

function build(extra: Partial<SwitchRegisterOptions> = {}) {
  const routes = new RouteTable(4, 0xffff, new Map([[1, 1], [2, 2]]), 3);
  return { routes, ...buildSwitchRegisters({ ports: 4, tt: 1, deviceId: 0x50, routes, flowControl: true, ...extra }) };
}

test('Part 1 Table 5-7 bit 3, Part 3 Table 3-3 bit 23, Part 9 Table 4-1 bit 24: the PE Features CAR of a switch with the standard route table mechanism and flow control', () => {
  const { space } = build();
  const f = peFeaturesView.unpack(space.readWord(PE_FEATURES_OFFSET));
  assert.deepEqual([f.switch, f.standardRouteTableConfigSupport, f.extendedRouteTableConfigSupport, f.dev16Support, f.dev32Support, f.flowControlSupport, f.extendedFeatures], [true, true, false, true, false, true, true]);
  const dev8 = build({ tt: 0, flowControl: false }).space;
  const g = peFeaturesView.unpack(dev8.readWord(PE_FEATURES_OFFSET));
  assert.deepEqual([g.dev16Support, g.flowControlSupport], [false, false]);
});

test('Part 1 §5.4.6 Table 5-8, §5.4.7: Switch Port Information CAR holds PortTotal and the accessing port; the Operations CARs of a switch-only device are 0', () => {
  const { space } = build();
  setAccessPort(space, 3);
  assert.deepEqual(switchPortInformationView.unpack(space.readWord(SWITCH_OFFSETS.switchPortInformation)), { portTotal: 4, portNumber: 3, rsrv: 0 });
  // "Writes to CAR (read-only) space shall terminate normally": a MAINTENANCE write changes nothing.
  space.write(SWITCH_OFFSETS.switchPortInformation, word(0xffffffff));
  assert.equal(space.readWord(SWITCH_OFFSETS.switchPortInformation), 0x0403);
  assert.deepEqual([space.readWord(SOURCE_OPERATIONS_OFFSET), space.readWord(DESTINATION_OPERATIONS_OFFSET)], [0, 0]);
});

test('Part 3 §3.5.1, §3.4.2, §3.5.4: Base Device ID, Switch Route Table Destination ID Limit and Component Tag', () => {
  const { space } = build({ identity: { componentTag: 0x12345678, deviceIdentity: 0x0a0b } });
  assert.equal(baseDeviceIdView.unpack(space.readWord(STANDARD_OFFSETS.baseDeviceId)).dev16BaseDeviceId, 0x50);
  assert.equal(space.readWord(SWITCH_OFFSETS.routeLimit), 0xffff);
  assert.equal(space.readWord(COMPONENT_TAG_OFFSET), 0x12345678);
  assert.equal(space.readWord(STANDARD_OFFSETS.deviceIdentity) >>> 16, 0x0a0b);
});

test('Part 6 §7.5.3, VoQ Backpressure §5.1: the extended features list holds the endpoint-free LP-Serial block and, with VoQ, the VoQ block; ports start enabled and participating', () => {
  const { space, lpSerialBase, voqBase } = build({ voq: { format: 'seed', generate: [2] } });
  const walk = walkExtendedFeatures(space, { strict: true });
  assert.deepEqual(walk.blocks.map((b) => b.efId), [EF_ID.lpSerialEndpointFree, EF_ID.voqBackpressure]);
  const pc = portControlView.unpack(space.readWord(portControlOffset(lpSerialBase, 3, LpSerialMap.I)));
  assert.deepEqual([pc.outputPortEnable, pc.inputPortEnable, pc.flowControlParticipant], [true, true, true]);
  assert.equal(isFlowControlParticipant(space, lpSerialBase, 3), true);
  const voq = [0, 1, 2, 3].map((p) => readVoqPortControl(space, voqBase ?? -1, p, 'seed'));
  assert.deepEqual(voq.map((c) => [c.enableVoqSymbolGeneration, c.enableVoqParticipation]), [[false, true], [false, true], [true, true], [false, true]]);
});

test('Part 3 §3.5.5–§3.5.7: selecting a destination ID loads its route into the Port Select CSR; writing it reprograms the table; the Default Port CSR sets the default', () => {
  const { space, routes } = build();
  space.write(SWITCH_OFFSETS.routeDestIdSelect, word(0x0002));
  assert.equal(space.readWord(SWITCH_OFFSETS.routePortSelect), 2);
  space.write(SWITCH_OFFSETS.routeDestIdSelect, word(0x1234));
  assert.equal(space.readWord(SWITCH_OFFSETS.routePortSelect), NO_ROUTE);
  space.write(SWITCH_OFFSETS.routePortSelect, word(1));
  assert.deepEqual([routes.entry(0x1234), routes.lookup(0x1234)], [1, 1]);
  assert.equal(space.readWord(SWITCH_OFFSETS.routeDefaultPort), 3);
  space.write(SWITCH_OFFSETS.routeDefaultPort, word(0));
  assert.equal(routes.lookup(0x4444), 0);
  // Reserved bits of the three CSRs read 0 (Ext_config_en: PE Features bit 22 is clear).
  space.write(SWITCH_OFFSETS.routeDestIdSelect, word(0x80000005));
  assert.equal(space.readWord(SWITCH_OFFSETS.routeDestIdSelect), 0x0005);
});

test('Part 3 §3.5.5 (decision): a Dev8 switch ignores Config_destID_msb; a route write for an ID above Max_destID ("undefined results") is ignored', () => {
  const routes = new RouteTable(4, 0x0f, new Map([[7, 2]]), undefined);
  const { space } = buildSwitchRegisters({ ports: 4, tt: 0, deviceId: 0x50, routes, flowControl: false });
  space.write(SWITCH_OFFSETS.routeDestIdSelect, word(0x0107));
  assert.deepEqual([space.readWord(SWITCH_OFFSETS.routeDestIdSelect), space.readWord(SWITCH_OFFSETS.routePortSelect)], [0x07, 2]);
  space.write(SWITCH_OFFSETS.routeDestIdSelect, word(0x00ff));
  space.write(SWITCH_OFFSETS.routePortSelect, word(1));
  assert.deepEqual([space.readWord(SWITCH_OFFSETS.routePortSelect), routes.lookup(0xff)], [NO_ROUTE, undefined]);
});

test('Part 3 §2.3 (decision): an entry without a port, and an ID above the limit, take the default port; a port the switch lacks routes nothing', () => {
  const t = new RouteTable(4, 0xff, new Map([[1, 1]]), undefined);
  assert.deepEqual([t.lookup(1), t.lookup(2), t.lookup(0x100), t.lookup(-1)], [1, undefined, undefined, undefined]);
  t.defaultPort = 2;
  assert.deepEqual([t.lookup(2), t.lookup(0x100)], [2, 2]);
  t.set(1, 9);
  assert.equal(t.lookup(1), undefined);
  t.set(1, NO_ROUTE);
  assert.equal(t.lookup(1), 2);
  assert.deepEqual(t.snapshot(), { entries: {}, defaultPort: 2, limit: 0xff });
});
