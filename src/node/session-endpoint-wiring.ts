import type { Time, TimerOutput } from '../engine/contract.ts';
import type { SessionEngine } from '../session/engine.ts';
import type { Type11Conveyance } from '../session/type11-conveyance.ts';
import type { Type11ConveyanceOutput } from '../session/type11-conveyance-types.ts';
import type { Type9Conveyance } from '../session/type9-conveyance.ts';
import type { Type9ConveyanceOutput } from '../session/type9-conveyance-types.ts';
import type { SendMessageOutput, SendPduOutput, SessionInput } from '../session/types.ts';
import { untag } from './endpoint-input.ts';
import type { EndpointTimerName, EventSource, SessionEndpointOutput } from './session-endpoint-types.ts';
import type { TransmitQueue } from './transmit-queue.ts';

/** What the wiring between the engines needs of its end point (session-endpoint.ts). */
export interface WiringHost {
  /** The time of the input being handled. */
  now(): Time;
  /** An output of the input being handled. */
  output(o: SessionEndpointOutput): void;
  /** A message or PDU for a conveyance the end point does not have (counted, reported). */
  noConveyance(conveyance: 'type11' | 'type9', to: number, unit: 'message' | 'pdu'): void;
}

/** The engines of a `SessionEndpoint` the wiring joins. */
export interface WiredEngines {
  readonly session: SessionEngine;
  readonly type11: Type11Conveyance | undefined;
  readonly type9: Type9Conveyance | undefined;
  readonly tx: TransmitQueue;
  /** §3.3 "<StreamID> identifies a stream dedicated for the reception of management messages": each one the end point advertises. */
  readonly managementStreams: ReadonlySet<number>;
}

/**
 * The session engine and the conveyances of a `SessionEndpoint` wired to each other: the session
 * engine's messages go over the conveyance of their contact, DATA3 PDUs over Type 9; received
 * messages, and Type 9 PDUs on a management stream the end point advertises, are the session
 * engine's messages; other Type 9 PDUs are its data PDUs (§4.3.4). The conveyances' packets are
 * staged in the transmit queue; events and timers are the end point's outputs, timers under the
 * name of their engine.
 */
export class EngineWiring {
  readonly #e: WiredEngines;
  readonly #host: WiringHost;

  constructor(engines: WiredEngines, host: WiringHost) {
    this.#e = engines;
    this.#host = host;
  }

  toSession(input: SessionInput): void {
    for (const o of this.#e.session.handle(input, this.#host.now())) {
      switch (o.kind) {
        case 'send':
          this.#sendMessage(o);
          break;
        case 'send-pdu':
          this.#sendPdu(o);
          break;
        case 'deliver':
          this.#host.output(o);
          break;
        case 'event':
          this.#host.output({ kind: 'event', source: 'session', at: o.at, detail: o.detail });
          break;
        case 'timer':
          this.#timerOut('session', o);
          break;
      }
    }
  }

  from11(outs: readonly Type11ConveyanceOutput[]): void {
    for (const o of outs) {
      switch (o.kind) {
        case 'packet':
          this.#e.tx.stage('type11', o.packet);
          break;
        case 'message':
          this.toSession({ kind: 'message', from: o.from, bytes: o.bytes, mailbox: o.mailbox });
          break;
        case 'event':
          this.#host.output({ kind: 'event', source: 'type11', at: this.#host.now(), detail: untag(o) });
          break;
        case 'timer':
          this.#timerOut('type11', o);
          break;
        case 'idle':
          break;
      }
    }
  }

  from9(outs: readonly Type9ConveyanceOutput[]): void {
    for (const o of outs) {
      switch (o.kind) {
        case 'packet':
          this.#e.tx.stage('type9', o.packet);
          break;
        case 'pdu':
          // §3.3: a stream "dedicated for the reception of management messages" carries messages, not data.
          if (this.#e.managementStreams.has(o.streamID)) this.toSession({ kind: 'message', from: o.from, bytes: o.pdu });
          else this.toSession({ kind: 'pdu', from: o.from, streamID: o.streamID, cos: o.cos, pdu: o.pdu });
          break;
        case 'event':
          this.#host.output({ kind: 'event', source: 'type9', at: this.#host.now(), detail: untag(o) });
          break;
        case 'timer':
          this.#timerOut('type9', o);
          break;
        case 'idle':
          break;
      }
    }
  }

  /** §3.3: a message travels over the conveyance of its target's contact. */
  #sendMessage(o: SendMessageOutput): void {
    const { to, contact, priority, bytes } = o;
    const id = o.message.command;
    const { type11, type9 } = this.#e;
    if (contact.conveyance === 'type11') {
      if (type11 === undefined) this.#host.noConveyance('type11', to, 'message');
      else this.from11(type11.handle({ kind: 'send', to, contact, priority, bytes, id }, this.#host.now()));
    } else if (type9 === undefined) {
      this.#host.noConveyance('type9', to, 'message');
    } else {
      this.from9(type9.handle({ kind: 'send', to, contact, priority, bytes, id }, this.#host.now()));
    }
  }

  /** §4.3.4 DATA3: "When the data is carried by the Data Streaming Protocol". */
  #sendPdu(o: SendPduOutput): void {
    const type9 = this.#e.type9;
    if (type9 === undefined) this.#host.noConveyance('type9', o.to, 'pdu');
    else this.from9(type9.handle({ kind: 'send-pdu', to: o.to, streamID: o.streamID, cos: o.cos, pdu: o.pdu }, this.#host.now()));
  }

  #timerOut(source: Exclude<EventSource, 'endpoint'>, o: TimerOutput): void {
    this.#host.output({ kind: 'timer', name: `${source}:${o.name}` as EndpointTimerName, at: o.at });
  }
}
