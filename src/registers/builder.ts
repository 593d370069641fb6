import type { VoqFormat } from '../wire/voq-stype2.ts';
import { checkComponentTagAdvertisement, componentTagRegister, componentTagWord, COMPONENT_TAG_OFFSET } from './component-tag.ts';
import type { ComponentTagAdvertisement } from './component-tag.ts';
import { DS_CONTROL_OFFSET, TM_MODE, TM_MODE_NAMES, TM_TYPES, dsControlRegister, dsControlView, dsInfoRegister, mtuEncoding } from './data-streaming.ts';
import type { TmModeName, TmTypesName } from './data-streaming.ts';
import { layoutEfChain } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { RegisterError, RegisterErrorCode } from './errors.ts';
import type { FieldChanges } from './fields.ts';
import { OPERATIONS_FIELDS, OperationsCar, destinationOperationsView, operationsRegister, sourceOperationsView } from './operations.ts';
import { PE_FEATURES_FIELDS, decodePeFeatures, peFeaturesRegister, peFeaturesView } from './pe-features.ts';
import { LpSerialMap, lpSerialBlock, portControlOffset, portControlView } from './port-control.ts';
import { initializeSessionBlock, sessionBlock } from './session-block.ts';
import type { AdvertisementConfig } from './session-block.ts';
import { RegisterSpace } from './space.ts';
import { standardRegisters } from './standard.ts';
import type { StandardRegisterOptions } from './standard.ts';
import { voqBlock } from './voq-block.ts';
import type { VoqPortCapabilities } from './voq-block.ts';

/**
 * Builds the configuration space of an endpoint: the CARs/CSRs of Parts 1, 3, 9 and 10, the
 * Component Tag CSR and an extended features chain of LP-Serial block (Port n Control CSRs),
 * optional VoQ block and session management blocks, in that order from 0x100. Registers take
 * their hardware reset values; the builder then performs, through the local path, the software
 * initialization the options describe (port enables, flow control participation, session
 * advertisements), so `space.reset()` returns to the hardware reset state.
 */
export interface DataStreamingConfig {
  /** Largest PDU the destination accepts, bytes 1..65536 (MaxPDU, 0 encodes 64K). */
  readonly maxPdu: number;
  /** Segmentation contexts, 1..65536 (SegSupport). */
  readonly segSupport: number;
  /** MTU in bytes, 32..256 in 4-byte steps. */
  readonly mtu: number;
  /** Traffic management: supported types (Basic is implied) and the initial mode. */
  readonly tm?: { readonly types: Exclude<TmTypesName, 'NONE' | 'INVALID'>; readonly mode?: TmModeName | number };
}

/** The VoQ Backpressure block of an end point (`EndpointConfig.voq`). */
export interface VoqConfig {
  readonly format?: VoqFormat;
  /** Defaults to the endpoint's port count; must match it (one register per port, §5.1.2). */
  readonly ports?: number;
  /** Each port's support bits (Table 5-3 bits 0–2): the same for every port, or per port. Default `DEFAULT_VOQ_CAPABILITIES`. */
  readonly capabilities?: VoqPortCapabilities | ((port: number) => VoqPortCapabilities);
}

/** One session management block (Annex 2 §5.2): its advertisement and attributes. */
export type SessionBlockConfig = AdvertisementConfig & {
  /** Sess_Mgmt_Max_Attr (0..254); defaults to 8 attributes. */
  readonly maxAttr?: number;
  /** Attribute fields, 8 octets each, written in order. */
  readonly attributes?: readonly Uint8Array[];
};

/** Session management advertisement of an end point (`EndpointConfig.session`). */
export interface SessionConfig {
  /** One block per conveyance (Annex 2 §5.2: "an instance ... for every conveyance"). */
  readonly blocks?: readonly SessionBlockConfig[];
  /** The deprecated Component Tag CSR advertisement (Annex 2 §5.3). */
  readonly componentTag?: ComponentTagAdvertisement;
}

/** Identity and base device ID fields as in `StandardRegisterOptions`; the EF chain gives extendedFeaturesPtr. */
export interface EndpointConfig extends Omit<StandardRegisterOptions, 'extendedFeaturesPtr' | 'dev32'> {
  readonly flowControl?: boolean;
  readonly flowArb?: boolean;
  readonly ports?: number;
  readonly lpSerialMap?: LpSerialMap;
  readonly dev16?: boolean;
  readonly dev32?: boolean;
  readonly crf?: boolean;
  /** Data message and doorbell in both Operations CARs (Part 2). */
  readonly messaging?: boolean;
  readonly dataStreaming?: DataStreamingConfig;
  readonly voq?: VoqConfig;
  readonly session?: SessionConfig;
  readonly peFeatures?: FieldChanges<typeof PE_FEATURES_FIELDS>;
  readonly sourceOperations?: FieldChanges<typeof OPERATIONS_FIELDS>;
  readonly destinationOperations?: FieldChanges<typeof OPERATIONS_FIELDS>;
  /** Component tag bits 16–31 (all 32 bits when session management does not use it). */
  readonly componentTag?: number;
}

function fail(detail: string, clause: string): never {
  throw new RegisterError(RegisterErrorCode.definition, 0, 'buildEndpointRegisters', clause, detail);
}

/**
 * The PE Features CAR as configured, refused when riodp's own strict decoder would refuse it
 * (a reserved Extended Addressing Support encoding, Part 1 Table 5-5; bit 22 without bit 23 or
 * with bit 19): an accepted option must give a register a conforming reader can read.
 */
function checkedPeFeatures(fields: Parameters<typeof peFeaturesView.pack>[0]): number {
  const word = peFeaturesView.pack(fields);
  try {
    decodePeFeatures(word, { strict: true });
  } catch (e) {
    if (!(e instanceof RegisterError)) throw e;
    fail(`peFeatures: ${e.detail} (${e.register})`, e.clause);
  }
  return word;
}

function tmModeValue(mode: TmModeName | number | undefined): number {
  if (mode === undefined) return TM_MODE.disabled;
  if (typeof mode === 'number') return mode;
  const i = TM_MODE_NAMES.indexOf(mode as (typeof TM_MODE_NAMES)[number]);
  if (i < 0) fail(`TM mode ${mode} has no encoding; give the number for user-defined modes`, 'Part 10 §5.5.1 Table 5-6');
  return i;
}

function tmTypesValue(name: string): number {
  const entry = Object.entries(TM_TYPES).find(([, n]) => n === name);
  return entry === undefined ? fail(`unknown TM types ${name}`, 'Part 10 §5.5.1 Table 5-6') : Number(entry[0]);
}

/**
 * Builds an end point's configuration space: the standard CARs and CSRs, and the extended features blocks the
 * configuration asks for (LP-Serial, data streaming, VoQ backpressure, session management), initialised as
 * the options say.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ deviceIdentity: 0x1234, dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * console.log(dsControl.get(space, 'mtu')); // 64: 256 bytes in 4-byte units
 * ```
 */
export function buildEndpointRegisters(config: EndpointConfig = {}): RegisterSpace {
  const flowControl = config.flowControl ?? false;
  const flowArb = config.flowArb ?? false;
  const ports = config.ports ?? 1;
  const dev32 = config.dev32 ?? false;
  const ds = config.dataStreaming;
  const space = new RegisterSpace();

  const blocks: EfBlockSpec[] = [lpSerialBlock({ ports, map: config.lpSerialMap ?? LpSerialMap.I, flowControl, flowArb })];
  if (config.voq !== undefined) {
    const voqPorts = config.voq.ports ?? ports;
    if (voqPorts !== ports) fail(`VoQ block has ${voqPorts} ports, the endpoint ${ports}: one register per port`, 'VoQ Backpressure §5.1.2');
    blocks.push(voqBlock({ ports, ...(config.voq.format === undefined ? {} : { format: config.voq.format }), ...(config.voq.capabilities === undefined ? {} : { capabilities: config.voq.capabilities }) }));
  }
  const sessionBlocks = config.session?.blocks ?? [];
  for (const s of sessionBlocks) blocks.push(sessionBlock({ maxAttr: s.maxAttr ?? 8 }));
  const placements = layoutEfChain(space, blocks);
  const head = placements[0]?.base ?? 0;

  for (const r of standardRegisters({ ...config, extendedFeaturesPtr: head, dev32 })) space.define(r);

  space.define(peFeaturesRegister(checkedPeFeatures({
    ...peFeaturesView.unpack(0),
    dev16Support: config.dev16 ?? true,
    dev32Support: dev32,
    crfSupport: config.crf ?? true,
    flowArbitrationSupport: flowArb,
    flowControlSupport: flowControl,
    extendedFeatures: head !== 0,
    extendedAddressingSupport: 0b001,
    ...config.peFeatures,
  })));

  const ops = {
    ...sourceOperationsView.unpack(0),
    dataMessage: config.messaging ?? false,
    doorbell: config.messaging ?? false,
    dataStreaming: ds !== undefined,
    dataStreamingTrafficManagement: ds?.tm !== undefined,
  };
  space.define(operationsRegister(OperationsCar.source, sourceOperationsView.pack({ ...ops, ...config.sourceOperations })));
  space.define(operationsRegister(OperationsCar.destination, destinationOperationsView.pack({ ...ops, ...config.destinationOperations })));

  if (ds !== undefined) {
    space.define(dsInfoRegister(ds.maxPdu, ds.segSupport));
    // Without TM, 0b0000 and Operations CAR bit 12 clear (data-streaming-fields.ts TM_TYPES says why).
    const types = ds.tm === undefined ? 0 : tmTypesValue(ds.tm.types);
    const mode = tmModeValue(ds.tm?.mode);
    space.define(dsControlRegister(dsControlView.pack({ tmTypesSupported: types, tmMode: mode, mtu: mtuEncoding(ds.mtu) })));
    // The typed view checks the mode against Table 5-6 and the supported types (§3.4.5).
    dsControlView.update(space, DS_CONTROL_OFFSET, { tmMode: mode });
  }

  space.define(componentTagRegister(0));

  // Software initialization (local path) of what has a spec-given reset value. The LP-Serial
  // block is always first in the chain.
  for (let n = 0; n < ports; n++) {
    portControlView.update(space, portControlOffset(head, n, config.lpSerialMap ?? LpSerialMap.I), {
      outputPortEnable: true,
      inputPortEnable: true,
      ...(flowControl ? { flowControlParticipant: true } : {}),
      ...(flowArb ? { flowArbitrationParticipant: true } : {}),
    });
  }
  const sessionPlacements = placements.slice(placements.length - sessionBlocks.length);
  sessionPlacements.forEach((p, i) => {
    const s = sessionBlocks[i];
    if (s !== undefined) initializeSessionBlock(space, p.base, s, s.attributes ?? []);
  });
  const tag = config.session?.componentTag;
  if (tag !== undefined) {
    checkComponentTagAdvertisement(space, tag);
    space.writeLocal(COMPONENT_TAG_OFFSET, componentTagWord(tag, (config.componentTag ?? 0) & 0xffff));
  } else if (config.componentTag !== undefined) {
    space.writeLocal(COMPONENT_TAG_OFFSET, config.componentTag);
  }
  return space;
}
