import { attempt } from '../wire/errors.ts';
import { SMP_COMMAND, STATUS_BIT, decodeSmp } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';

/**
 * How a received management message is judged before any command handling (Annex 2 §3.5.2.1,
 * §3.7, §3.8.5, §4.2.8).
 *
 * Every message is decoded leniently first: what fails even then is malformed. Lenient decoding
 * labels an unassigned <CMD> (`UNKNOWN`) and an unknown <VER> (`version: 'UNKNOWN'`); §3.5.2.1:
 * "If a receiver receives an unrecognized message or a message other than STATUS with unknown
 * <VER>, then the receiver must respond with a STATUS command with the Command_Unknown bit set.
 * Recipients must not respond to STATUS messages with unknown <VER>."
 *
 * Validation mode (§3.8.5) then decodes strictly, which throws on "all reserved fields" that are
 * not zero and on every value the codecs know to be invalid: "the receiver must test all reserved
 * fields for zero-filled content, and reject the received command if not zero-filled. The sender
 * of such a message is thereafter to be treated as suspect". Non-validation mode ignores reserved
 * fields, but "Other error handling must not be disabled": the checks below that are not about
 * reserved fields apply in both modes.
 *
 * Suspicion (decision E31): a sender of octets that are no message, or of a value its command
 * does not define, is suspect in both modes. §3.7.3: non-compliance "can indicate that a target
 * node is not operating in strict compliance with the Session Management Protocol ... It can also
 * indicate that a target node is making illegal or non-specified use of reserved fields. In both
 * cases, the target node is judged to be suspect"; only the reserved-field test is validation
 * mode's (§3.7 "Second, ... a validation mode, in which ... all reserved fields are tested"). An
 * unknown <CMD> or <VER> is answered (§3.5.2.1) and does not make its sender suspect.
 */
export type Rejection =
  /** The octets are no message (lenient decoding failed). */
  | 'malformed'
  /** An unassigned <CMD>. */
  | 'unknown-command'
  /** A known command with an unknown <VER>. */
  | 'unknown-version'
  /** A value the command does not define (both modes). */
  | 'invalid'
  /** Validation mode: strict decoding failed (reserved field not zero, or an invalid value). */
  | 'validation';

export type Received =
  | { readonly ok: true; readonly message: SmpMessage }
  | {
      readonly ok: false;
      readonly rejection: Rejection;
      readonly reason: string;
      /** The lenient decoding, when there is one. */
      readonly message?: SmpMessage;
      /** <CMD> is STATUS: never answered (§4.2.8 "The receiver must not respond to an illegally formed STATUS command with another STATUS command"). */
      readonly isStatus: boolean;
      /** §3.8.5: the sender is to be treated as suspect. */
      readonly suspect: boolean;
    };

export function receive(bytes: Uint8Array, validation: boolean): Received {
  const isStatus = bytes[0] === SMP_COMMAND.STATUS;
  const lenient = attempt(() => decodeSmp(bytes, 0, bytes.length));
  if (!lenient.ok) return { ok: false, rejection: 'malformed', reason: lenient.error.message, isStatus, suspect: true };
  const message = lenient.value;
  const reject = (rejection: Rejection, reason: string, suspect = false): Received => ({ ok: false, rejection, reason, message, isStatus, suspect });
  if (message.command === 'UNKNOWN') return reject('unknown-command', `CMD 0x${message.cmd.toString(16).padStart(2, '0')} is not a session management command`);
  if ('version' in message && message.version === 'UNKNOWN') return reject('unknown-version', `VER 0x${message.ver.toString(16).padStart(2, '0')} is not 0x01`);
  if (validation) {
    const strict = attempt(() => decodeSmp(bytes, 0, bytes.length, { strict: true }));
    if (!strict.ok) return reject('validation', strict.error.message, true);
  }
  const invalid = invalidValue(message);
  return invalid === undefined ? { ok: true, message } : reject('invalid', invalid, true);
}

/**
 * Values that are wrong rather than reserved, checked in both modes (§3.7 "whenever illegal
 * values are specified in individual commands, the system receiving the command must respond
 * with an indication of error").
 */
function invalidValue(m: SmpMessage): string | undefined {
  switch (m.command) {
    case 'FLOW_CONTROL':
      // §4.2.6 defines XON 0x01, XOFF 0x00 and RTS 0xff only.
      if (m.flowControlName === 'UNDEFINED') return `Flow_Control 0x${m.flowControl.toString(16)} is not XON, XOFF or RTS (§4.2.6)`;
      return m.streamID === 0xffff ? 'StreamID 0xFFFF is invalid (§3.5.2.5 Table 3-1)' : undefined;
    case 'ACCEPT':
    case 'CLOSE':
      return m.streamID === 0xffff ? 'StreamID 0xFFFF is invalid (§3.5.2.5 Table 3-1)' : undefined;
    case 'STATUS':
      // §4.2.8 "If the STATUS message is sent in order to request the status of a StreamID, the
      // <ContextSpecificData> fields are not used, and <DataSize> must be set to zero."
      if ((m.status & STATUS_BIT.REQUEST_STATUS_OF_REMOTE) !== 0 && m.contextSpecificData.length !== 0) return 'a status request carries context-specific data (§4.2.8)';
      return undefined;
    default:
      return undefined;
  }
}
