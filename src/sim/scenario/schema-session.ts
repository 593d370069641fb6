import { z } from 'zod';
import {
  DEFAULT_PROTOCOL_NAME, DEFAULT_SESSION_STREAM, SIM_READ_TIMEOUT, SIM_RETRY_PERIOD, SIM_TIMEOUT_PERIOD, isProtocolName,
} from '../../node/endpoint/session-config.ts';
import { bool, expecting, int } from '../../config/zod-parts.ts';
import { managementContactShape, sessionTimersShape } from '../../node/endpoint/session-schema.ts';
import { time } from './schema-parts.ts';

/**
 * `endpoints.session`: Annex 2 session management in every end point (src/node/endpoint/
 * session.ts), each field with its default, so the output is a complete
 * `EndpointSessionConfig`. Times are ps after parsing, like every scenario time.
 */

const ids = z.array(int(0), { error: expecting('a list of host IDs') });

const nameWhat = 'a protocol name of 1 to 7 Latin-1 characters (Annex 2 §6.2.2: 56 bits)';
const protocolName = z.string({ error: expecting(nameWhat) }).refine(isProtocolName, { error: expecting(nameWhat) });

const contact = managementContactShape();
const timers = sessionTimersShape(time(1));

/** The management contact and the session timers are every host's (src/node/endpoint/session-schema.ts); the rest is the scenario's policy. */
export const sessionSettings = z.strictObject({
  conveyance: contact.conveyance.unwrap().default('type11'),
  mailbox: contact.mailbox.unwrap().default(0),
  /** Outside the streamIDs a node assigns (Annex 2 §3.5.2.5 Table 3-1: 0x0000–0xDFFF). */
  streamID: contact.streamID.unwrap().default(DEFAULT_SESSION_STREAM),
  cos: contact.cos.unwrap().default(0),
  vendor: int(0, 0xffffff).default(0),
  protocolName: protocolName.default(DEFAULT_PROTOCOL_NAME),
  request: bool.default(true),
  hop: int(0, 255).default(0xff),
  refuse: ids.default([]),
  nonParticipants: ids.default([]),
  readTimeout: time(1).default(SIM_READ_TIMEOUT),
  retryPeriod: timers.retryPeriod.unwrap().default(SIM_RETRY_PERIOD),
  timeoutPeriod: timers.timeoutPeriod.unwrap().default(SIM_TIMEOUT_PERIOD),
}, { error: expecting('session settings {conveyance, mailbox, streamID, cos, vendor, protocolName, request, hop, refuse, nonParticipants, readTimeout, retryPeriod, timeoutPeriod}') });
