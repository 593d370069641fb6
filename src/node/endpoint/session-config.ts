/**
 * Configuration of an end point's Annex 2 session management in the simulator
 * (session.ts), and the `SessionEndpoint` configuration it becomes
 * (src/node/session-endpoint-types.ts).
 *
 * Every end point of a scenario gets the same settings; the lists `refuse` and `nonParticipants`
 * name the end points that behave otherwise. Durations are picoseconds, the simulator's unit: the
 * session engines' own defaults are written for the nanoseconds of `riodp model`, so each one the
 * simulator relies on is given here scaled (as `SIM_ORPHAN_PERIOD` is for Part 9).
 */
import { booleanFlag, deviceIdForTt, integerInRange, oneOf, orDefault, positiveInteger } from '../../engine/config-checks.ts';
import type { SessionEndpointConfig } from '../session-endpoint-types.ts';
import { DEFAULT_POLL_PERIOD, DEFAULT_READ_TIMEOUT } from '../../session/discovery-config.ts';
import type { Conveyance } from '../../session/discovery-types.ts';
import { DEFAULT_REASSEMBLY_TIMEOUT, DEFAULT_RESPONSE_TIMEOUT } from '../../session/type11-conveyance-config.ts';
import type { Contact, ProtocolSupport } from '../../session/types.ts';
import { attrProtocolName, attrVendor } from '../../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../../wire/smp/attributes.ts';
import { PROTO_ID } from '../../wire/smp/header.ts';

export interface EndpointSessionConfig {
  /**
   * How every end point receives management messages, the contact it advertises (§3.3): 'type11'
   * (a Part 2 mailbox) or 'type9' (a Part 10 stream). Default 'type11'.
   */
  readonly conveyance?: Conveyance;
  /** The management mailbox with 'type11', 0..63 (decision T2). Default 0. */
  readonly mailbox?: number;
  /** The management StreamID with 'type9', 0xE000..0xFFFE: outside the streamIDs a node assigns (§3.5.2.5 Table 3-1). Default 0xFFF0. */
  readonly streamID?: number;
  /** The COS of the management stream with 'type9'. Default 0. */
  readonly cos?: number;
  /** VENDOR of the vendor-defined protocol the streams carry (§6.2.1: an IEEE OUI, 24 bits). Default 0x000000. */
  readonly vendor?: number;
  /** PROTOCOL_NAME of that protocol (§6.2.2: 56 bits, here up to 7 Latin-1 characters). Default 'RIODPSM'. */
  readonly protocolName?: string;
  /** REQUEST the protocol and OPEN with what the ADVERTISE lists (Figure 3-1), or OPEN at once (§3.8.1: REQUEST is optional). Default true. */
  readonly request?: boolean;
  /** hop_count of the discovery reads (Part 3 §2.5). Default 0xFF. */
  readonly hop?: number;
  /** End points (device IDs) whose protocol refuses every OPEN (REFUSE, §3.5.1.5). Default none. */
  readonly refuse?: readonly number[];
  /**
   * End points (device IDs) that take no part in session management: their registers advertise
   * nothing (§3.2, §5.3), no stream can be opened to them, and their own flows send without one.
   * Default none.
   */
  readonly nonParticipants?: readonly number[];
  /** Time a discovery read waits for its MAINTENANCE response, ps. Default 100 ms. */
  readonly readTimeout?: number;
  /** REQUEST_RETRY_PERIOD (§3.5.3.4), ps. Default 250 ms. */
  readonly retryPeriod?: number;
  /** REQUEST_TIMEOUT_PERIOD (§3.5.3.5), ps. Default 1 s. */
  readonly timeoutPeriod?: number;
}

/** Picoseconds per nanosecond: the engines' defaults are in ns. */
export const PS_PER_NS = 1000;
/** The session engine's `unitsPerMicrosecond` in the simulator's picoseconds. */
export const SIM_UNITS_PER_MICROSECOND = 1_000_000;
/** §3.5.3.4 "default value is 250 milliseconds", in ps. */
export const SIM_RETRY_PERIOD = 250 * 1_000_000_000;
/** §3.5.3.5 "default value is 1 second", in ps. */
export const SIM_TIMEOUT_PERIOD = 1_000_000_000_000;
export const SIM_READ_TIMEOUT = DEFAULT_READ_TIMEOUT * PS_PER_NS;
export const SIM_POLL_PERIOD = DEFAULT_POLL_PERIOD * PS_PER_NS;
export const SIM_RESPONSE_TIMEOUT = DEFAULT_RESPONSE_TIMEOUT * PS_PER_NS;
export const SIM_REASSEMBLY_TIMEOUT = DEFAULT_REASSEMBLY_TIMEOUT * PS_PER_NS;

export const DEFAULT_SESSION_STREAM = 0xfff0;
export const DEFAULT_PROTOCOL_NAME = 'RIODPSM';

export type SessionRole = 'participant' | 'non-participant';

export interface ResolvedSessionFeatureConfig {
  readonly role: SessionRole;
  readonly nodeId: number;
  readonly tt: 0 | 1;
  readonly contact: Contact;
  /** VENDOR and PROTOCOL_NAME: what REQUEST and OPEN name (§6.2 "These two attributes distinguish a vendor-defined protocol"). */
  readonly identity: readonly AttributeLike[];
  readonly acceptOpen: boolean;
  readonly request: boolean;
  readonly hop: number;
  readonly readTimeout: number;
  readonly retryPeriod: number;
  readonly timeoutPeriod: number;
  readonly crfSupported: boolean;
}

function idList(v: unknown, tt: number, field: string): readonly number[] {
  const list = orDefault<unknown>(v, []);
  if (!Array.isArray(list)) throw new RangeError(`${field} must be a list of device IDs`);
  return list.map((id: unknown, i) => deviceIdForTt(id, tt, `${field}[${i}]`));
}

/** §6.2.2 PROTOCOL_NAME is 56 bits: 1 to 7 Latin-1 characters, one octet each, NUL being the pad. */
export function isProtocolName(s: string): boolean {
  if (s.length < 1 || s.length > 7) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 1 || c > 0xff) return false;
  }
  return true;
}

function protocolName(v: unknown): string {
  const name = orDefault<unknown>(v, DEFAULT_PROTOCOL_NAME);
  if (typeof name !== 'string' || !isProtocolName(name)) {
    throw new RangeError('session.protocolName must be 1 to 7 Latin-1 characters');
  }
  return name;
}

/** Checks the settings for end point `nodeId` (RangeError naming the field) and fills in the defaults. */
export function resolveSessionFeatureConfig(c: EndpointSessionConfig, nodeId: number, tt: number, crfSupported: boolean): ResolvedSessionFeatureConfig {
  // SessionEndpoint sends Dev8 or Dev16 packets (Annex 2 §3.5.2.2 "2-octet IDs").
  const t = oneOf(tt, [0, 1], 'session: tt (the end point\'s)', 'or');
  const conveyance = oneOf(orDefault<unknown>(c.conveyance, 'type11'), ['type11', 'type9'], 'session.conveyance', 'or');
  const contact: Contact = conveyance === 'type11'
    ? { conveyance, mailbox: integerInRange(orDefault(c.mailbox, 0), 0, 63, 'session.mailbox') }
    : { conveyance, streamID: integerInRange(orDefault(c.streamID, DEFAULT_SESSION_STREAM), 0xe000, 0xfffe, 'session.streamID'), cos: integerInRange(orDefault(c.cos, 0), 0, 0xff, 'session.cos') };
  const vendor = integerInRange(orDefault(c.vendor, 0), 0, 0xffffff, 'session.vendor');
  const refuse = idList(c.refuse, t, 'session.refuse');
  const absent = idList(c.nonParticipants, t, 'session.nonParticipants');
  return {
    role: absent.includes(nodeId) ? 'non-participant' : 'participant',
    nodeId,
    tt: t,
    contact,
    identity: [attrVendor({ oui: vendor }), attrProtocolName(protocolName(c.protocolName))],
    acceptOpen: !refuse.includes(nodeId),
    request: booleanFlag(orDefault(c.request, true), 'session.request'),
    hop: integerInRange(orDefault(c.hop, 0xff), 0, 0xff, 'session.hop'),
    readTimeout: positiveInteger(orDefault(c.readTimeout, SIM_READ_TIMEOUT), 'session.readTimeout'),
    retryPeriod: positiveInteger(orDefault(c.retryPeriod, SIM_RETRY_PERIOD), 'session.retryPeriod'),
    timeoutPeriod: positiveInteger(orDefault(c.timeoutPeriod, SIM_TIMEOUT_PERIOD), 'session.timeoutPeriod'),
    crfSupported,
  };
}

/** The vendor-defined protocol every participant receives (Chapter 6, ProtoID 0x0101). */
export function simProtocol(r: ResolvedSessionFeatureConfig): ProtocolSupport {
  return { protoID: PROTO_ID.VENDOR_DEFINED, attributes: r.identity, acceptOpen: r.acceptOpen };
}

/**
 * The Type 11 conveyance's response timeout: 100 ms is "well inside the session's 250 ms
 * REQUEST_RETRY_PERIOD" (type11-conveyance-config.ts), 2/5 of it. A shorter retry period keeps
 * that ratio, so that a message whose segment was lost has failed before the session sends it
 * again (one letter per mailbox would otherwise hold the retry behind the lost segment).
 */
export function type11ResponseTimeout(retryPeriod: number): number {
  return Math.max(1, Math.min(SIM_RESPONSE_TIMEOUT, Math.floor((retryPeriod * 2) / 5)));
}

/** The `SessionEndpoint` of a participant: its one conveyance, advertised in a Session Management block. */
export function sessionEndpointConfig(r: ResolvedSessionFeatureConfig): SessionEndpointConfig {
  const base: SessionEndpointConfig = {
    nodeId: r.nodeId,
    tt: r.tt,
    conveyances: [r.contact.conveyance],
    advertisement: { blocks: [{ contact: r.contact }] },
    session: {
      protocols: [simProtocol(r)],
      unitsPerMicrosecond: SIM_UNITS_PER_MICROSECOND,
      retryPeriod: r.retryPeriod,
      timeoutPeriod: r.timeoutPeriod,
      xonTimeout: r.timeoutPeriod,
      rtsRetry: r.retryPeriod,
      rtsLimit: r.timeoutPeriod,
    },
    discovery: { readTimeout: r.readTimeout, pollPeriod: SIM_POLL_PERIOD },
  };
  if (r.contact.conveyance === 'type11') {
    return { ...base, type11: { responseTimeout: type11ResponseTimeout(r.retryPeriod), reassemblyTimeout: SIM_REASSEMBLY_TIMEOUT } };
  }
  return { ...base, type9: { crfSupported: r.crfSupported } };
}
