import { attempt } from '../wire/errors.ts';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';
import type { SmpAttribute } from '../wire/smp/attributes.ts';
import { decodeSmp, smpBytes, smpRefuse } from '../wire/smp/index.ts';
import type { SmpOpen, SmpRefuse } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { valueNumber } from './attribute-values.ts';
import { answerCommandUnknown } from './status-rules.ts';
import type { OpenRefusalReason } from './types.ts';

/**
 * The answer to an OPEN this end point does not accept (Annex 2 §3.5.1.5, §4.2.5, §3.8.5), also
 * when the OPEN itself is malformed: the answer must not be.
 */

const OMN = ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER;

/** The OPEN's OPEN_MESSAGE_NUMBER attribute: the first with that ID and a 32-bit value. */
function openMessageNumberAttribute(open: SmpOpen): SmpAttribute | undefined {
  return open.attributes.find((a) => a.id === OMN && a.value.length === 4);
}

/** Whether the REFUSE's octets decode strictly: its sender's own validation mode would take it. */
function wellFormed(m: SmpRefuse): boolean {
  const bytes = attempt(() => smpBytes(m));
  return bytes.ok && attempt(() => decodeSmp(bytes.value, 0, bytes.value.length, { strict: true })).ok;
}

/**
 * The REFUSE for `open`, or undefined when no well-formed one exists. §3.5.1.5 "The REFUSE message
 * contains all the attributes in the OPEN request, in order to allow the OPEN sender to
 * differentiate which OPEN request was refused", so the OPEN's list is copied when that makes a
 * well-formed REFUSE. §4.2.5 "The only attribute required in the REFUSE message is the
 * OPEN_MESSAGE_NUMBER attribute from the OPEN. Other attributes from the REQUEST message may
 * optionally be copied": when the OPEN's list breaks the rules (OPEN_MESSAGE_NUMBER not first,
 * attributes out of order, reserved bits), the REFUSE carries OPEN_MESSAGE_NUMBER first and the
 * rest after it, or OPEN_MESSAGE_NUMBER alone. Without OPEN_MESSAGE_NUMBER, or with a ProtoID no
 * REFUSE may carry, there is none.
 */
export function refuseFor(destID: number, open: SmpOpen): SmpRefuse | undefined {
  const omn = openMessageNumberAttribute(open);
  if (omn === undefined) return undefined;
  const rest = open.attributes.filter((a) => a.id !== OMN);
  for (const attributes of [open.attributes, [omn, ...rest], [omn]]) {
    const m = smpRefuse({ destID, protoID: open.protoID, attributes });
    if (wellFormed(m)) return m;
  }
  return undefined;
}

/**
 * Refuses `open` (octets `raw`) from `from` and reports it (event `open-refused` with the reason).
 * Without a well-formed REFUSE the answer is STATUS Command_Unknown quoting the OPEN: §3.8.5
 * "Normal error handling is used in such a case, or if no other error handling is specified, a
 * STATUS message must be returned, indicating Command_Unknown"; §4.2.8 "If the STATUS message is
 * sent in response to an invalid, unknown, or malformed command, then the original command is
 * sent in the <ContextSpecificData> fields".
 */
export function refuse(core: SessionCore, from: number, open: SmpOpen, raw: Uint8Array, reason: OpenRefusalReason, detail: string): void {
  const m = refuseFor(core.config.nodeId, open);
  const omn = openMessageNumberAttribute(open);
  const number = omn === undefined ? {} : { openMessageNumber: Number(valueNumber(omn.value)) };
  if (m === undefined) answerCommandUnknown(core, from, raw, open);
  else core.reply(from, m);
  core.event({ event: 'open-refused', node: from, protoID: open.protoID, ...number, reason, detail, answer: m === undefined ? 'STATUS' : 'REFUSE' });
}
