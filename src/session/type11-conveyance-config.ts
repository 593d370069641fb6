import {
  deviceIdForTt, integerInRange, nonNegativeInteger, oneOf, orDefault, positiveInteger, positiveIntegerOrNull, transportType,
} from '../engine/config-checks.ts';
import { TT } from '../wire/header.ts';
import { MESSAGE_MAX_SEGMENT } from '../wire/type11.ts';
import { MAILBOX_COUNT, STANDARD_SEGMENT_SIZES } from './type11-mailbox.ts';
import type { Type11ConveyanceConfig } from './type11-conveyance-types.ts';

/** The validated configuration of a `Type11Conveyance`, defaults filled in. */
export interface ResolvedType11Config {
  readonly nodeId: number;
  readonly tt: number;
  readonly segmentSize: number;
  readonly letters: number;
  readonly responseTimeout: number;
  readonly retryDelay: number;
  readonly maxRetries: number;
  readonly maxReassemblies: number;
  readonly reassemblyTimeout: number | null;
  /** Bit i set: mailbox i receives. */
  readonly mailboxes: readonly boolean[];
}

/** 100 ms in the model's nanoseconds: well inside the session's 250 ms REQUEST_RETRY_PERIOD (§3.5.3.4). */
export const DEFAULT_RESPONSE_TIMEOUT = 100_000_000;
export const DEFAULT_REASSEMBLY_TIMEOUT = 100_000_000;
export const DEFAULT_MAX_RETRIES = 16;
export const DEFAULT_MAX_REASSEMBLIES = 16;
/** Part 2 §2.3.1 "up to four data message operations (or "letters") in progress to each of four different mailboxes". */
export const LETTERS_MAX = 4;

function checkMailboxes(v: unknown): boolean[] {
  const accepted = new Array<boolean>(MAILBOX_COUNT).fill(v === undefined);
  if (v === undefined) return accepted;
  if (!Array.isArray(v)) throw new RangeError('mailboxes must be a list of mailbox numbers from 0 to 63');
  v.forEach((m: unknown, i) => {
    accepted[integerInRange(m, 0, MAILBOX_COUNT - 1, `mailboxes[${i}]`)] = true;
  });
  return accepted;
}

export function resolveType11Config(config: Type11ConveyanceConfig): ResolvedType11Config {
  const tt = transportType(orDefault(config.tt, TT.dev16), 'tt');
  return {
    nodeId: deviceIdForTt(config.nodeId, tt, 'nodeId'),
    tt,
    segmentSize: oneOf(orDefault(config.segmentSize, MESSAGE_MAX_SEGMENT), STANDARD_SEGMENT_SIZES, 'segmentSize'),
    letters: integerInRange(orDefault(config.letters, LETTERS_MAX), 1, LETTERS_MAX, 'letters'),
    responseTimeout: positiveInteger(orDefault(config.responseTimeout, DEFAULT_RESPONSE_TIMEOUT), 'responseTimeout'),
    retryDelay: nonNegativeInteger(orDefault(config.retryDelay, 0), 'retryDelay'),
    maxRetries: nonNegativeInteger(orDefault(config.maxRetries, DEFAULT_MAX_RETRIES), 'maxRetries'),
    maxReassemblies: positiveInteger(orDefault(config.maxReassemblies, DEFAULT_MAX_REASSEMBLIES), 'maxReassemblies'),
    reassemblyTimeout: positiveIntegerOrNull(orDefault(config.reassemblyTimeout, DEFAULT_REASSEMBLY_TIMEOUT), 'reassemblyTimeout'),
    mailboxes: checkMailboxes(config.mailboxes),
  };
}
