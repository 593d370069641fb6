import { deviceIdForTt, integerInRange, oneOf, orDefault } from '../engine/config-checks.ts';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { countFromField } from '../registers/data-streaming.ts';
import type { EndpointConfig } from '../registers/builder.ts';
import { RegisterError } from '../registers/errors.ts';
import { SESSION_BLOCK } from '../registers/session-block.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { resolveDiscoveryConfig } from '../session/discovery-config.ts';
import type { Conveyance, DiscoveryConfig } from '../session/discovery-types.ts';
import { checkContact } from '../session/engine-config.ts';
import { initialiseAdvertisement } from '../session/local-advertisement.ts';
import type { AdvertisementPlan } from '../session/local-advertisement.ts';
import { LAST_APPLICATION_STREAM } from '../session/stream-ids.ts';
import { resolveType11Config } from '../session/type11-conveyance-config.ts';
import type { Type11ConveyanceConfig } from '../session/type11-conveyance-types.ts';
import type { Type9ConveyanceConfig } from '../session/type9-conveyance-types.ts';
import type { Contact, SessionConfig } from '../session/types.ts';
import type { SessionEndpointConfig } from './session-endpoint-types.ts';

/** The validated configuration of a `SessionEndpoint`: the inner engines' configurations, complete. */
export interface ResolvedEndpointConfig {
  readonly nodeId: number;
  readonly tt: 0 | 1;
  readonly conveyances: readonly Conveyance[];
  /** Every contact this end point advertises (blocks in order, then the Component Tag CSR). */
  readonly advertised: readonly Contact[];
  readonly session: SessionConfig;
  readonly discovery: DiscoveryConfig;
  /** The discovery engine's read timeout, which bounds how long a MAINTENANCE read waits. */
  readonly readTimeout: number;
  readonly type11: Type11ConveyanceConfig | undefined;
  readonly type9: Type9ConveyanceConfig | undefined;
}

/** Default attributes a block holds when its plan does not say (Sess_Mgmt_Max_Attr). */
const DEFAULT_MAX_ATTR = 8;
/** Part 10 §5.4.3: MaxPDU and SegSupport "0x0000 - 64K", the largest values. */
const DEFAULT_MAX_PDU = 0x10000;
const DEFAULT_SEG_SUPPORT = 0x10000;

/** The contexts a SegSupport encoding names (the reassembler's, 0 = 64K); the default without one. */
function segContexts(segSupport: number | undefined): number {
  return segSupport === undefined ? DEFAULT_SEG_SUPPORT : countFromField(segSupport);
}
const DEFAULT_MTU = 256;

/** Runs an inner check and names its field from the end point's configuration. */
export function within<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError) throw new RangeError(`${prefix}.${e.message}`);
    throw e;
  }
}

function checkConveyances(v: unknown): readonly Conveyance[] {
  const list = orDefault<unknown>(v, ['type11', 'type9']);
  if (!Array.isArray(list) || list.length === 0) throw new RangeError('conveyances must list type11, type9 or both');
  const seen = new Set<Conveyance>();
  list.forEach((c: unknown, i) => {
    const kind = oneOf(c, ['type11', 'type9'], `conveyances[${i}]`, 'or');
    if (seen.has(kind)) throw new RangeError(`conveyances[${i}] must not repeat an earlier conveyance`);
    seen.add(kind);
  });
  return [...seen];
}

/**
 * A contact this end point advertises. It must be one of its conveyances (it receives there), and a
 * Type 9 management stream lies outside 0x0000–0xDFFF, the streamIDs the session engine assigns to
 * the streams it accepts (Table 3-1 "Available for applications"): a data stream on the management
 * stream would make its PDUs management messages (a decision).
 */
function checkAdvertised(c: unknown, conveyances: readonly Conveyance[], field: string): Contact {
  const contact = checkContact(c, field);
  if (!conveyances.includes(contact.conveyance)) throw new RangeError(`${field}.conveyance must be one of this end point's conveyances (${conveyances.join(', ')})`);
  if (contact.conveyance === 'type9' && contact.streamID <= LAST_APPLICATION_STREAM) {
    throw new RangeError(`${field}.streamID must be above 0xDFFF, outside the streamIDs this end point assigns (Annex 2 §3.5.2.5 Table 3-1)`);
  }
  return contact;
}

export function resolveEndpointConfig(c: SessionEndpointConfig): ResolvedEndpointConfig {
  const tt = oneOf(orDefault<unknown>(c.tt, 1), [0, 1], 'tt', 'or');
  const nodeId = deviceIdForTt(c.nodeId, tt, 'nodeId');
  const conveyances = checkConveyances(c.conveyances);
  const adv = (c.advertisement as SessionEndpointConfig['advertisement'] | undefined) ?? {};
  const blocks = orDefault<unknown>(adv.blocks, []);
  if (!Array.isArray(blocks)) throw new RangeError('advertisement.blocks must be a list');
  const advertised = (blocks as { contact?: unknown }[]).map((b, i) => checkAdvertised(b.contact, conveyances, `advertisement.blocks[${i}].contact`));
  if (adv.componentTag !== undefined) advertised.push(checkAdvertised(adv.componentTag, conveyances, 'advertisement.componentTag'));
  const first = advertised[0];
  // §3.2 "implementations conforming to this specification must indicate participation".
  if (first === undefined) throw new RangeError('advertisement must give a block or a Component Tag contact (Annex 2 §3.2)');
  const deviceIdBits = tt === 0 ? 8 : 16;
  const own = c.session as SessionEndpointConfig['session'] | null | undefined;
  if (typeof own !== 'object' || own === null) throw new RangeError('session must be the session engine\'s configuration');
  const type11: Type11ConveyanceConfig | undefined = conveyances.includes('type11') ? { letters: 1, ...c.type11, nodeId, tt } : undefined;
  const segmentSize = type11 === undefined ? undefined : within('type11', () => resolveType11Config(type11)).segmentSize;
  // The engine cuts DATA and bounds management messages by the segment size the conveyance cuts
  // with (Part 2 §2.3.1 "up to 16 individual packets"): a larger one would have them refused.
  if (segmentSize !== undefined && own.type11SegmentSize !== undefined && own.type11SegmentSize !== segmentSize) {
    throw new RangeError(`session.type11SegmentSize must equal the Type 11 conveyance's segmentSize (${segmentSize}), or be left out`);
  }
  const session: SessionConfig = {
    ...own,
    nodeId,
    deviceIdBits,
    contact: own.contact ?? first,
    ...(segmentSize === undefined ? {} : { type11SegmentSize: segmentSize }),
  };
  const discovery: DiscoveryConfig = { ...c.discovery, self: nodeId, deviceIdBits, conveyances };
  const readTimeout = within('discovery', () => resolveDiscoveryConfig(discovery)).readTimeout;
  return {
    nodeId,
    tt,
    conveyances,
    advertised,
    session,
    discovery,
    readTimeout,
    type11,
    type9: conveyances.includes('type9') ? { ...c.type9, ...type9Mtu(c), ...type9SegSupport(c), nodeId, tt } : undefined,
  };
}

/** The Type 9 MTU: `type9.mtu`, else the register's when `registers.dataStreaming.mtu` is given; both must agree. */
function type9Mtu(c: SessionEndpointConfig): { readonly mtu?: number } {
  const own = c.type9?.mtu;
  const reg = c.registers?.dataStreaming?.mtu;
  if (own !== undefined && reg !== undefined && own !== reg) {
    throw new RangeError(`registers.dataStreaming.mtu must equal type9.mtu (${String(own)}): the MTU is one field (Part 10 §5.5.1 Table 5-6)`);
  }
  const mtu = own ?? reg;
  return mtu === undefined ? {} : { mtu };
}

/**
 * The Type 9 reassembler's SegSupport: `type9.segSupport` (the field's encoding, 0 = 64K contexts,
 * 65536 accepted too), else the register's when `registers.dataStreaming.segSupport` (a count,
 * 1..65536) is given; both must name the same number of contexts. The Data Streaming Information
 * CAR then advertises what the reassembler has (`buildRegisters`): Part 10 §3.2.4 "The number of
 * segmentation contexts … is specified in a CAR".
 */
function type9SegSupport(c: SessionEndpointConfig): { readonly segSupport?: number } {
  const raw = c.type9?.segSupport;
  const own = raw === undefined ? undefined : integerInRange(raw, 0, 0x10000, 'type9.segSupport');
  const reg = c.registers?.dataStreaming?.segSupport;
  if (own !== undefined && reg !== undefined && countFromField(own) !== reg) {
    throw new RangeError(`registers.dataStreaming.segSupport must equal the contexts of type9.segSupport (${countFromField(own)}): SegSupport is one field (Part 10 §5.4.3 Table 5-5)`);
  }
  const segSupport = own ?? reg;
  return segSupport === undefined ? {} : { segSupport };
}

/**
 * The end point's configuration space: built with its session blocks at their reset state
 * (§3.2 "must be initialized by hardware to indicate non-participation"), then initialised by the
 * local processor to advertise participation (local-advertisement.ts).
 */
export function buildRegisters(c: SessionEndpointConfig, r: ResolvedEndpointConfig): RegisterSpace {
  const plans = c.advertisement.blocks ?? [];
  const maxAttrs = plans.map((b, i) => integerInRange(b.maxAttr ?? Math.max(DEFAULT_MAX_ATTR, b.attributes?.length ?? 0), 0, SESSION_BLOCK.maxAttr, `advertisement.blocks[${i}].maxAttr`));
  const { dataStreaming: ds, ...registers } = c.registers ?? {};
  const options: EndpointConfig = {
    messaging: r.conveyances.includes('type11'),
    ...(r.conveyances.includes('type9') || ds !== undefined ? { dataStreaming: { maxPdu: DEFAULT_MAX_PDU, segSupport: segContexts(r.type9?.segSupport), mtu: r.type9?.mtu ?? DEFAULT_MTU, ...ds } } : {}),
    ...(r.tt === 0 ? { dev8BaseDeviceId: r.nodeId } : { dev16BaseDeviceId: r.nodeId }),
    ...registers,
    session: { blocks: maxAttrs.map((maxAttr) => ({ conveyance: 'NOT_SUPPORTED' as const, maxAttr })) },
  };
  let space: RegisterSpace;
  try {
    space = buildEndpointRegisters(options);
  } catch (e) {
    if (e instanceof RegisterError) throw new RangeError(`registers must describe an end point the register layer builds: ${e.message}`);
    throw e;
  }
  const plan: AdvertisementPlan = {
    blocks: plans,
    ...(c.advertisement.componentTag === undefined ? {} : { componentTag: c.advertisement.componentTag }),
    ...(c.advertisement.lockValue === undefined ? {} : { lockValue: c.advertisement.lockValue }),
  };
  const result = within('advertisement', () => initialiseAdvertisement(space, plan));
  const refused = result.blocks.find((b) => !b.ok);
  // A space just built is unlocked; a lock held here would be another writer's, which cannot be.
  if (refused !== undefined) throw new RangeError(`advertisement.blocks must be writable: the block at 0x${refused.base.toString(16)} is locked`);
  return space;
}
