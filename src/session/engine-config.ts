import { booleanFlag, integerInRange, oneOf, orDefault, positiveInteger } from '../engine/config-checks.ts';
import { WireError } from '../wire/errors.ts';
import { checkAttribute } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import type { NegotiationDefaults } from './negotiate.ts';
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
}

/** Nanoseconds per microsecond: the unit of `riodp model` and of the TCP fabric. */
export const DEFAULT_UNITS_PER_MICROSECOND = 1000;
export const DEFAULT_MAX_PENDING_PDUS = 64;
/** §3.5.3.4 "The REQUEST_RETRY_PERIOD attribute default value is 250 milliseconds." */
export const DEFAULT_RETRY_US = 250_000;
/** §3.5.3.5 / §3.5.3.6: "default value is 1 second". */
export const DEFAULT_TIMEOUT_US = 1_000_000;

export function checkContact(c: unknown, field: string): Contact {
  const kind = oneOf((c as { conveyance?: unknown } | undefined)?.conveyance, ['type11', 'type9'], `${field}.conveyance`, 'or');
  if (kind === 'type11') return { conveyance: kind, mailbox: integerInRange((c as { mailbox?: unknown }).mailbox, 0, 0xff, `${field}.mailbox`) };
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

export function resolveSessionConfig(config: SessionConfig): ResolvedSessionConfig {
  const deviceIdBits = oneOf(orDefault(config.deviceIdBits, 16), [8, 16], 'deviceIdBits', 'or');
  const nodeId = integerInRange(config.nodeId, 0, 2 ** deviceIdBits - 1, 'nodeId');
  const units = positiveInteger(orDefault(config.unitsPerMicrosecond, DEFAULT_UNITS_PER_MICROSECOND), 'unitsPerMicrosecond');
  const protocols = config.protocols as unknown;
  if (!Array.isArray(protocols)) throw new RangeError('protocols must be a list');
  const seen = new Set<number>();
  (protocols as ProtocolSupport[]).forEach((p, i) => {
    checkProtocol(p, i);
    if (seen.has(p.protoID)) throw new RangeError(`protocols[${i}].protoID must not repeat an earlier protocol`);
    seen.add(p.protoID);
  });
  const userDefined = (config.userDefined ?? []).map((c, i) => integerInRange(c, 0xf0, 0xff, `userDefined[${i}]`));
  const dataMailboxes = (config.dataMailboxes ?? []).map((m, i) => integerInRange(m, 0, 0xff, `dataMailboxes[${i}]`));
  return {
    nodeId,
    deviceIdBits,
    contact: checkContact(config.contact, 'contact'),
    protocols: protocols as ProtocolSupport[],
    requestAdvertise: booleanFlag(orDefault(config.requestAdvertise, true), 'requestAdvertise'),
    validation: booleanFlag(orDefault(config.validation, false), 'validation'),
    retryPeriod: positiveInteger(orDefault(config.retryPeriod, DEFAULT_RETRY_US * units), 'retryPeriod'),
    timeoutPeriod: positiveInteger(orDefault(config.timeoutPeriod, DEFAULT_TIMEOUT_US * units), 'timeoutPeriod'),
    xonTimeout: positiveInteger(orDefault(config.xonTimeout, DEFAULT_TIMEOUT_US * units), 'xonTimeout'),
    rtsRetry: positiveInteger(orDefault(config.rtsRetry, DEFAULT_RETRY_US * units), 'rtsRetry'),
    rtsLimit: positiveInteger(orDefault(config.rtsLimit, DEFAULT_TIMEOUT_US * units), 'rtsLimit'),
    unitsPerMicrosecond: units,
    conduitRole: oneOf(orDefault(config.conduitRole, 'peers'), ['peers', 'master', 'slave'], 'conduitRole', 'or'),
    userDefined,
    reverifyOnStreamUnknown: booleanFlag(orDefault(config.reverifyOnStreamUnknown, true), 'reverifyOnStreamUnknown'),
    maxPendingPdus: positiveInteger(orDefault(config.maxPendingPdus, DEFAULT_MAX_PENDING_PDUS), 'maxPendingPdus'),
    dataMailboxes,
    multicast: booleanFlag(orDefault(config.multicast, false), 'multicast'),
  };
}

/** What the negotiation helper needs of the configuration. */
export function negotiationDefaults(c: ResolvedSessionConfig): NegotiationDefaults {
  return { retryPeriod: c.retryPeriod, timeoutPeriod: c.timeoutPeriod, xonTimeout: c.xonTimeout, unitsPerMicrosecond: c.unitsPerMicrosecond };
}
