import { booleanFlag, integerInRange, oneOf, orDefault, positiveInteger } from '../engine/config-checks.ts';
import { WireError } from '../wire/errors.ts';
import { checkAttribute } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { PROTO_ID } from '../wire/smp/header.ts';
import { MESSAGE_MAX_SEGMENT } from '../wire/type11.ts';
import type { NegotiationDefaults } from './negotiate.ts';
import { hasVendorIdentity, sameVendorIdentity } from './support-match.ts';
import { STANDARD_SEGMENT_SIZES, checkMailbox } from './type11-mailbox.ts';
import type { ConduitRole, Contact, ProtocolSupport, SessionConfig } from './types.ts';

/** The validated configuration of a `SessionEngine`, defaults filled in (durations in time units). */
export interface ResolvedSessionConfig {
  readonly nodeId: number;
  readonly deviceIdBits: 8 | 16;
  readonly contact: Contact;
  readonly protocols: readonly ProtocolSupport[];
  readonly requestAdvertise: boolean;
  readonly validation: boolean;
  readonly retryPeriod: number;
  readonly timeoutPeriod: number;
  readonly xonTimeout: number;
  readonly rtsRetry: number;
  readonly rtsLimit: number;
  readonly unitsPerMicrosecond: number;
  readonly conduitRole: ConduitRole;
  readonly userDefined: readonly number[];
  readonly reverifyOnStreamUnknown: boolean;
  readonly maxPendingPdus: number;
  readonly dataMailboxes: readonly number[];
  readonly multicast: boolean;
  readonly type11SegmentSize: number;
}

/** Nanoseconds per microsecond: the unit of `riodp model` and of the TCP fabric. */
export const DEFAULT_UNITS_PER_MICROSECOND = 1000;
/** §3.5.3.4 "The REQUEST_RETRY_PERIOD attribute default value is 250 milliseconds." */
const DEFAULT_RETRY_US = 250_000;
/** §3.5.3.5 / §3.5.3.6: "default value is 1 second". */
const DEFAULT_TIMEOUT_US = 1_000_000;

/** The defaults of the SessionConfig fields (types.ts) that do not scale with `unitsPerMicrosecond`. */
export const SESSION_DEFAULTS = {
  deviceIdBits: 16,
  requestAdvertise: true,
  validation: false,
  conduitRole: 'peers',
  reverifyOnStreamUnknown: true,
  maxPendingPdus: 64,
  multicast: false,
  type11SegmentSize: MESSAGE_MAX_SEGMENT,
} as const;

/**
 * The default periods in time units: REQUEST_RETRY_PERIOD, REQUEST_TIMEOUT_PERIOD and
 * FLOW_CONTROL_XON_TIMEOUT_PERIOD (§3.5.3.4–§3.5.3.6), and the RTS retry "at 250 msec intervals,
 * until 1 second has elapsed" (§4.2.6).
 */
export function defaultPeriods(unitsPerMicrosecond: number): Pick<ResolvedSessionConfig, 'retryPeriod' | 'timeoutPeriod' | 'xonTimeout' | 'rtsRetry' | 'rtsLimit'> {
  const retry = DEFAULT_RETRY_US * unitsPerMicrosecond;
  const timeout = DEFAULT_TIMEOUT_US * unitsPerMicrosecond;
  return { retryPeriod: retry, timeoutPeriod: timeout, xonTimeout: timeout, rtsRetry: retry, rtsLimit: timeout };
}

export function checkContact(c: unknown, field: string): Contact {
  const kind = oneOf((c as { conveyance?: unknown } | undefined)?.conveyance, ['type11', 'type9'], `${field}.conveyance`, 'or');
  // Decision T2: the mailbox ID is a Part 2 mailbox, 0–63.
  if (kind === 'type11') return { conveyance: kind, mailbox: checkMailbox((c as { mailbox?: unknown }).mailbox, `${field}.mailbox`) };
  const t9 = c as { streamID?: unknown; cos?: unknown };
  return { conveyance: kind, streamID: integerInRange(t9.streamID, 0, 0xffff, `${field}.streamID`), cos: integerInRange(t9.cos, 0, 0xff, `${field}.cos`) };
}

function checkAttributeList(list: unknown, field: string): readonly AttributeLike[] {
  if (!Array.isArray(list)) throw new RangeError(`${field} must be a list of attributes`);
  (list as AttributeLike[]).forEach((a, i) => {
    try {
      checkAttribute(a, `${field}[${i}]`);
    } catch (e) {
      if (e instanceof WireError) throw new RangeError(`${field}[${i}] must be an attribute: ${e.detail}`);
      throw e;
    }
  });
  return list as AttributeLike[];
}

function checkProtocol(p: ProtocolSupport, i: number): ProtocolSupport {
  const f = `protocols[${i}]`;
  integerInRange(p.protoID, 0, 0xfffe, `${f}.protoID`);
  checkAttributeList(p.attributes, `${f}.attributes`);
  (p.understood ?? []).forEach((id, j) => integerInRange(id, 0, 0xffffffff, `${f}.understood[${j}]`));
  if (p.singleSession !== undefined) booleanFlag(p.singleSession, `${f}.singleSession`);
  if (p.acceptOpen !== undefined) booleanFlag(p.acceptOpen, `${f}.acceptOpen`);
  if (p.cos !== undefined) integerInRange(p.cos, 0, 0xff, `${f}.cos`);
  if (p.dataHeaderFormat !== undefined) oneOf(p.dataHeaderFormat, ['DATA', 'DATA1', 'DATA2', 'DATA3'], `${f}.dataHeaderFormat`);
  if (p.data2Octet !== undefined) integerInRange(p.data2Octet, 0, 0xff, `${f}.data2Octet`);
  return p;
}

/**
 * One ProtocolSupport per ProtoID, except vendor-defined protocols, which share 0x0101 and are
 * told apart by "the VENDOR attribute, and the PROTOCOL-NAME attribute" (§6.2): several are
 * allowed when each advertises both and no two share a VENDOR and PROTOCOL_NAME value.
 */
function checkDistinct(protocols: readonly ProtocolSupport[]): void {
  protocols.forEach((p, i) => {
    const earlier = protocols.map((q, k) => ({ q, k })).filter(({ q, k }) => k < i && q.protoID === p.protoID);
    if (earlier.length === 0) return;
    if (p.protoID !== PROTO_ID.VENDOR_DEFINED) throw new RangeError(`protocols[${i}].protoID must not repeat an earlier protocol`);
    const anonymous = [...earlier, { q: p, k: i }].find(({ q }) => !hasVendorIdentity(q));
    if (anonymous !== undefined) {
      throw new RangeError(`protocols[${anonymous.k}].attributes must carry VENDOR and PROTOCOL_NAME to stand beside another vendor-defined protocol (Annex 2 §6.2)`);
    }
    const twin = earlier.find(({ q }) => sameVendorIdentity(p, q));
    if (twin !== undefined) throw new RangeError(`protocols[${i}] must not repeat the VENDOR and PROTOCOL_NAME of protocols[${twin.k}] (Annex 2 §6.2)`);
  });
}

export function resolveSessionConfig(config: SessionConfig): ResolvedSessionConfig {
  const d = SESSION_DEFAULTS;
  const deviceIdBits = oneOf(orDefault(config.deviceIdBits, d.deviceIdBits), [8, 16], 'deviceIdBits', 'or');
  const nodeId = integerInRange(config.nodeId, 0, 2 ** deviceIdBits - 1, 'nodeId');
  const units = positiveInteger(orDefault(config.unitsPerMicrosecond, DEFAULT_UNITS_PER_MICROSECOND), 'unitsPerMicrosecond');
  const periods = defaultPeriods(units);
  const protocols = config.protocols as unknown;
  if (!Array.isArray(protocols)) throw new RangeError('protocols must be a list');
  (protocols as ProtocolSupport[]).forEach(checkProtocol);
  checkDistinct(protocols as ProtocolSupport[]);
  const userDefined = (config.userDefined ?? []).map((c, i) => integerInRange(c, 0xf0, 0xff, `userDefined[${i}]`));
  const dataMailboxes = (config.dataMailboxes ?? []).map((m, i) => checkMailbox(m, `dataMailboxes[${i}]`));
  return {
    nodeId,
    deviceIdBits,
    contact: checkContact(config.contact, 'contact'),
    protocols: protocols as ProtocolSupport[],
    requestAdvertise: booleanFlag(orDefault(config.requestAdvertise, d.requestAdvertise), 'requestAdvertise'),
    validation: booleanFlag(orDefault(config.validation, d.validation), 'validation'),
    retryPeriod: positiveInteger(orDefault(config.retryPeriod, periods.retryPeriod), 'retryPeriod'),
    timeoutPeriod: positiveInteger(orDefault(config.timeoutPeriod, periods.timeoutPeriod), 'timeoutPeriod'),
    xonTimeout: positiveInteger(orDefault(config.xonTimeout, periods.xonTimeout), 'xonTimeout'),
    rtsRetry: positiveInteger(orDefault(config.rtsRetry, periods.rtsRetry), 'rtsRetry'),
    rtsLimit: positiveInteger(orDefault(config.rtsLimit, periods.rtsLimit), 'rtsLimit'),
    unitsPerMicrosecond: units,
    conduitRole: oneOf(orDefault(config.conduitRole, d.conduitRole), ['peers', 'master', 'slave'], 'conduitRole', 'or'),
    userDefined,
    reverifyOnStreamUnknown: booleanFlag(orDefault(config.reverifyOnStreamUnknown, d.reverifyOnStreamUnknown), 'reverifyOnStreamUnknown'),
    maxPendingPdus: positiveInteger(orDefault(config.maxPendingPdus, d.maxPendingPdus), 'maxPendingPdus'),
    dataMailboxes,
    multicast: booleanFlag(orDefault(config.multicast, d.multicast), 'multicast'),
    type11SegmentSize: oneOf(orDefault(config.type11SegmentSize, d.type11SegmentSize), STANDARD_SEGMENT_SIZES, 'type11SegmentSize'),
  };
}

/** What the negotiation helper needs of the configuration. */
export function negotiationDefaults(c: ResolvedSessionConfig): NegotiationDefaults {
  return { retryPeriod: c.retryPeriod, timeoutPeriod: c.timeoutPeriod, xonTimeout: c.xonTimeout, unitsPerMicrosecond: c.unitsPerMicrosecond };
}
