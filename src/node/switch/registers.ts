import { COMPONENT_TAG_OFFSET, componentTagRegister } from '../../registers/component-tag.ts';
import { EF_ID, layoutEfChain } from '../../registers/ef-chain.ts';
import type { EfBlockSpec, EfPlacement } from '../../registers/ef-chain.ts';
import { RegisterView, fieldMask } from '../../registers/fields.ts';
import { OperationsCar, operationsRegister } from '../../registers/operations.ts';
import { peFeaturesRegister, peFeaturesView } from '../../registers/pe-features.ts';
import { LpSerialMap, portControlOffset, portControlRegister, portControlView, portParticipation } from '../../registers/port-control.ts';
import { portErrorStatusOffset, portErrorStatusRegister, setPortLinkState } from '../../registers/port-error-status.ts';
import { RegisterKind, RegisterSpace } from '../../registers/space.ts';
import type { RegisterSpec } from '../../registers/space.ts';
import { STANDARD_OFFSETS, baseDeviceIdView, standardRegisters } from '../../registers/standard.ts';
import { updateVoqPortControl, voqBlock } from '../../registers/voq-block.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import type { RouteTable } from './routes.ts';
import type { SwitchIdentity } from './config-types.ts';

/**
 * The configuration space of a switch processing element (Part 1 §5.4, Part 3 §3.4–§3.5):
 *
 * - the identity CARs, Base Device ID and Host Base Device ID Lock CSRs (`standardRegisters`);
 * - Processing Element Features CAR with bit 3 "Switch" (Part 1 Table 5-7) and bit 23 "Standard
 *   route table configuration support" (Part 3 Table 3-3), Flow Control Support when a congestion
 *   point exists (Part 9 Table 4-1);
 * - Switch Port Information CAR (Part 1 §5.4.6 Table 5-8): PortTotal, and PortNumber, "the
 *   external port number from which the maintenance read operation accessed this register", which
 *   the element writes before answering each access (`setAccessPort`);
 * - Source and Destination Operations CARs, all 0: "For devices that have only switch
 *   functionality only bit 29 is valid", and this switch neither sends nor takes port-writes;
 * - Switch Route Table Destination ID Limit CAR and the standard route configuration CSRs
 *   (Part 3 §3.4.2, §3.5.5–§3.5.7), backed by the element's `RouteTable`, so host software can
 *   read and program routes as on hardware;
 * - Component Tag CSR ("especially useful for labeling and identifying devices that are not end
 *   points and do not have device ID registers", Part 3 §3.5.4);
 * - extended features: the LP-Serial block of a "generic device that does not contain endpoint
 *   functionality (i.e. switches)" (Part 6 §7.5.3, EF_ID 0x0003) with a Port n Error and Status
 *   CSR (§7.6.10: Port OK / Port Uninitialized from the port's link, `setPortLink`) and a Port n
 *   Control CSR per port, then the VoQ Backpressure block when VoQ generation is configured.
 *
 * The extended route table mechanism (PE Features bit 22) and Dev32 routing (bit 19, §3.6) are
 * not offered: their fields are reserved.
 */
export const SWITCH_OFFSETS = {
  switchPortInformation: 0x14,
  routeLimit: 0x34,
  routeDestIdSelect: 0x70,
  routePortSelect: 0x74,
  routeDefaultPort: 0x78,
} as const;

export const switchPortInformationView = new RegisterView('Switch Port Information CAR', 'Part 1 §5.4.6 Table 5-8', {
  portTotal: { bit: 16, width: 8 },
  portNumber: { bit: 24, width: 8 },
} as const);
export const routeLimitView = new RegisterView('Switch Route Table Destination ID Limit CAR', 'Part 3 §3.4.2 Table 3-4', {
  maxDestId: { bit: 16, width: 16 },
} as const);
export const routeDestIdSelectView = new RegisterView('Standard Route Configuration Destination ID Select CSR', 'Part 3 §3.5.5 Table 3-9', {
  extConfigEn: { bit: 0, width: 1 },
  configDestIdMsb: { bit: 16, width: 8 },
  configDestId: { bit: 24, width: 8 },
} as const);
export const routePortSelectView = new RegisterView('Standard Route Configuration Port Select CSR', 'Part 3 §3.5.6 Table 3-10', {
  configOutputPort: { bit: 24, width: 8 },
} as const);
export const routeDefaultPortView = new RegisterView('Standard Route Default Port CSR', 'Part 3 §3.5.7 Table 3-11', {
  defaultOutputPort: { bit: 24, width: 8 },
} as const);

export interface SwitchRegisterOptions {
  readonly ports: number;
  readonly tt: 0 | 1;
  readonly deviceId: number;
  readonly routes: RouteTable;
  /** PE Features Flow Control Support and the Flow Control Participant bits, set on every port. */
  readonly flowControl: boolean;
  /** VoQ block: format and the ports whose generation is enabled (participation is enabled on every port). */
  readonly voq?: { readonly format: VoqFormat; readonly generate: readonly number[] };
  readonly identity?: SwitchIdentity;
}

export interface SwitchRegisters {
  readonly space: RegisterSpace;
  readonly lpSerialBase: number;
  readonly voqBase: number | undefined;
}

const PORT_BYTE = fieldMask(24, 8);

/**
 * The selected destination ID: Config_destID, with Config_destID_msb above it "only valid if
 * bit 27 of the Processing Element Features CAR is set and the processing element is configured
 * to operate in Dev16 transport mode".
 */
function selectedId(word: number, tt: 0 | 1): number {
  const f = routeDestIdSelectView.unpack(word);
  return tt === 1 ? (f.configDestIdMsb << 8) | f.configDestId : f.configDestId;
}

function routeRegisters(o: SwitchRegisterOptions): RegisterSpec[] {
  const t = o.routes;
  const csr = (offset: number, view: { readonly register: string; readonly clause: string }, writable: number, reset: number, onWrite: NonNullable<RegisterSpec['onWrite']>): RegisterSpec => ({
    offset, name: view.register, kind: RegisterKind.csr, clause: view.clause, reset, writable, reserved: ~writable >>> 0, onWrite,
  });
  const select = o.tt === 1 ? fieldMask(16, 16) : PORT_BYTE;
  return [
    {
      offset: SWITCH_OFFSETS.routeLimit, name: routeLimitView.register, kind: RegisterKind.car, clause: routeLimitView.clause,
      reset: routeLimitView.pack({ maxDestId: t.limit }), reserved: fieldMask(0, 16),
    },
    // "specifies the destination ID entry in the switch routing table to access when the Standard
    // Route Configuration Port Select CSR is read or written": selecting loads that entry.
    csr(SWITCH_OFFSETS.routeDestIdSelect, routeDestIdSelectView, select, 0, ({ space, merged }) => {
      space.writeLocal(SWITCH_OFFSETS.routePortSelect, t.entry(selectedId(merged, o.tt)));
      return merged;
    }),
    // "When written, ... updates the switch output port configuration for packets with the
    // destination ID selected"; an ID above Max_destID ("undefined results") is left alone.
    csr(SWITCH_OFFSETS.routePortSelect, routePortSelectView, PORT_BYTE, t.entry(0), ({ space, current, merged, source }) => {
      if (source === 'local') return merged;
      return t.set(selectedId(space.readWord(SWITCH_OFFSETS.routeDestIdSelect), o.tt), merged & 0xff) ? merged : current;
    }),
    csr(SWITCH_OFFSETS.routeDefaultPort, routeDefaultPortView, PORT_BYTE, t.defaultPort, ({ merged }) => {
      t.defaultPort = merged & 0xff;
      return merged;
    }),
  ];
}

/**
 * Part 6 §7.5.3: EF_ID 0x0003, Register Map I (Table 7-4): header, then per port the Port n Error
 * and Status CSR at +0x58 + 0x20·n (§7.6.10) and the Port n Control CSR at +0x5C + 0x20·n.
 */
function lpSerialSwitchBlock(ports: number, flowControl: boolean): EfBlockSpec {
  return {
    id: EF_ID.lpSerialEndpointFree,
    name: 'LP-Serial Register Block Header',
    clause: 'Part 6 §7.5.3',
    size: 0x40 + 0x20 * ports,
    registers: (base) => Array.from({ length: ports }, (_, n) => [
      portErrorStatusRegister(portErrorStatusOffset(base, n, LpSerialMap.I), n),
      portControlRegister(portControlOffset(base, n, LpSerialMap.I), n, { flowControl, flowArb: false }),
    ]).flat(),
  };
}

export function buildSwitchRegisters(o: SwitchRegisterOptions): SwitchRegisters {
  const space = new RegisterSpace();
  const blocks: EfBlockSpec[] = [lpSerialSwitchBlock(o.ports, o.flowControl)];
  if (o.voq !== undefined) blocks.push(voqBlock({ ports: o.ports, format: o.voq.format }));
  const placements: EfPlacement[] = layoutEfChain(space, blocks);
  const lpSerialBase = (placements[0] as EfPlacement).base;
  const voqBase = placements[1]?.base;
  const id = o.identity ?? {};

  for (const r of standardRegisters({
    ...id,
    extendedFeaturesPtr: lpSerialBase,
    dev32: false,
    ...(o.tt === 0 ? { dev8BaseDeviceId: o.deviceId } : { dev16BaseDeviceId: o.deviceId }),
  })) space.define(r);
  space.define(peFeaturesRegister(peFeaturesView.pack({
    ...peFeaturesView.unpack(0),
    switch: true,
    dev16Support: o.tt === 1,
    crfSupport: true,
    flowControlSupport: o.flowControl,
    standardRouteTableConfigSupport: true,
    extendedFeatures: true,
    extendedAddressingSupport: 0b001,
  })));
  space.define({
    offset: SWITCH_OFFSETS.switchPortInformation, name: switchPortInformationView.register, kind: RegisterKind.car,
    clause: switchPortInformationView.clause, reset: switchPortInformationView.pack({ portTotal: o.ports, portNumber: 0 }), reserved: fieldMask(0, 16),
  });
  space.define(operationsRegister(OperationsCar.source, 0));
  space.define(operationsRegister(OperationsCar.destination, 0));
  for (const r of routeRegisters(o)) space.define(r);
  space.define(componentTagRegister(0));
  if (id.componentTag !== undefined) space.writeLocal(COMPONENT_TAG_OFFSET, id.componentTag);

  // Software initialization through the local path, as the endpoint builder does.
  for (let n = 0; n < o.ports; n++) {
    portControlView.update(space, portControlOffset(lpSerialBase, n, LpSerialMap.I), {
      outputPortEnable: true,
      inputPortEnable: true,
      ...(o.flowControl ? { flowControlParticipant: true } : {}),
    });
  }
  if (o.voq !== undefined && voqBase !== undefined) {
    const gen = new Set(o.voq.generate);
    for (let n = 0; n < o.ports; n++) {
      updateVoqPortControl(space, voqBase, n, o.voq.format, { enableVoqSymbolGeneration: gen.has(n), enableVoqParticipation: true });
    }
  }
  return { space, lpSerialBase, voqBase };
}

/** PortNumber of the Switch Port Information CAR: the port the access being answered came in on. */
export function setAccessPort(space: RegisterSpace, port: number): void {
  const word = space.readWord(SWITCH_OFFSETS.switchPortInformation);
  space.writeLocal(SWITCH_OFFSETS.switchPortInformation, ((word & ~PORT_BYTE) | (port & 0xff)) >>> 0);
}

/** Part 6 §7.6.10 Table 7-16: the port's link came up (Port OK) or went down (Port Uninitialized). */
export function setPortLink(space: RegisterSpace, lpSerialBase: number, port: number, up: boolean): void {
  setPortLinkState(space, portErrorStatusOffset(lpSerialBase, port, LpSerialMap.I), up);
}

/** Part 9 §4.3 Table 4-2: Flow Control Participant 0b0 "Do not route or issue flow control transactions to this port". */
export function isFlowControlParticipant(space: RegisterSpace, lpSerialBase: number, port: number): boolean {
  return portParticipation(space.readWord(portControlOffset(lpSerialBase, port, LpSerialMap.I))).flowControl;
}

/** The switch's device ID as its Base Device ID CSR holds it (Dev8 or Dev16 field by `tt`). */
export function baseDeviceId(space: RegisterSpace, tt: 0 | 1): number {
  const f = baseDeviceIdView.unpack(space.readWord(STANDARD_OFFSETS.baseDeviceId));
  return tt === 0 ? f.dev8BaseDeviceId : f.dev16BaseDeviceId;
}
