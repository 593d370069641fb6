/**
 * An end point that takes no part in Annex 2 session management (`nonParticipants`): it has a
 * configuration space like any end point and answers MAINTENANCE requests from it (Part 1
 * §4.1.10), but its registers advertise nothing. §3.2: the Advertisement CSR and the Component Tag
 * CSR "must be initialized by hardware to indicate non-participation", and nothing initialises
 * them, so discovery finds it not participating (§5.3 "the node does not conform") and no stream
 * is opened to it. Any other session packet reaching it is counted and dropped.
 */
import { isPacket } from '../endpoint-input.ts';
import { answerMaintenance } from '../maintenance.ts';
import { buildEndpointRegisters } from '../../registers/builder.ts';
import type { DataStreamingConfig } from '../../registers/builder.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { FTYPE_MAINTENANCE } from '../../wire/type8.ts';
import type { Type8Response } from '../../wire/type8.ts';

export type BystanderAnswer =
  | { readonly kind: 'response'; readonly response: Type8Response; readonly ok: boolean }
  /** Not a MAINTENANCE request for this end point: nothing to answer. */
  | { readonly kind: 'ignored'; readonly reason: string };

export class SessionBystander {
  readonly #id: number;
  readonly #space: RegisterSpace;

  /** `dataStreaming`: the Data Streaming registers of an end point that runs traffic management (tm-registers.ts). */
  constructor(id: number, tt: 0 | 1, dataStreaming?: DataStreamingConfig) {
    this.#id = id;
    // The same Operations CARs a Type 11 participant has, so only the session advertisement differs.
    this.#space = buildEndpointRegisters({ messaging: true, ...(tt === 0 ? { dev8BaseDeviceId: id } : { dev16BaseDeviceId: id }), ...(dataStreaming === undefined ? {} : { dataStreaming }) });
  }

  /** Its configuration space, which MAINTENANCE requests read and write. */
  get registers(): RegisterSpace {
    return this.#space;
  }

  answer(packet: unknown): BystanderAnswer {
    if (!isPacket(packet)) return { kind: 'ignored', reason: 'not a decoded packet' };
    if (packet.ftype !== FTYPE_MAINTENANCE) return { kind: 'ignored', reason: `ftype ${packet.ftype}: no session management here` };
    if (packet.destinationID !== this.#id) return { kind: 'ignored', reason: 'not for this end point' };
    if (packet.transactionName !== 'MAINTENANCE_READ_REQUEST' && packet.transactionName !== 'MAINTENANCE_WRITE_REQUEST') {
      return { kind: 'ignored', reason: `${packet.transactionName}: this end point sends no requests` };
    }
    const a = answerMaintenance(this.#space, packet);
    return a.response === undefined ? { kind: 'ignored', reason: a.ok ? 'no response' : a.reason } : { kind: 'response', response: a.response, ok: a.ok };
  }
}
