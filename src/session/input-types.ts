import type { TimerInput } from '../engine/contract.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import type { Contact, StreamRef } from './types.ts';

/**
 * The inputs of the Annex 2 session management engine (`SessionEngine`, src/session/engine.ts;
 * its other types are in types.ts, which re-exports these): received management messages and
 * PDUs, contacts, the application's commands and timer expiries.
 */

/** A management message received (bytes of the message, no RapidIO header), from node `from`. */
export interface MessageInput {
  readonly kind: 'message';
  readonly from: number;
  readonly bytes: Uint8Array;
  /**
   * The Type 11 mailbox the message arrived in (Part 2 mailbox ID as in Table 5-3's
   * Conveyance_Info), when it came over Type 11. DATA2 carries no StreamID (Table 4-14), so its
   * stream is known by (source, mailbox).
   */
  readonly mailbox?: number;
}

/** A Type 9 PDU received (Part 10 reassembly done by the conveyance): management stream or data. */
export interface PduInput {
  readonly kind: 'pdu';
  readonly from: number;
  readonly streamID: number;
  readonly cos: number;
  readonly pdu: Uint8Array;
}

/** The contact of a remote node, from discovery or configuration (§3.3). */
export interface ContactInput {
  readonly kind: 'contact';
  readonly node: number;
  readonly contact: Contact;
}

/** Send REQUEST to `to` (§4.2.1): ask which protocols it supports, or a protocol's attributes. */
export interface RequestCommand {
  readonly kind: 'request';
  readonly to: number;
  /** 0xFFFF (default) asks for the protocol list (§4.2.1). */
  readonly protoID?: number;
  /** Attributes the ADVERTISE should be limited to (§4.2.1 <NumAttrib>). */
  readonly attributes?: readonly AttributeLike[];
}

/**
 * Open a stream to `to` for `protoID` (§3.5.3, OPEN §4.2.3); the outcome is an `opened`, `refused` or
 * `timeout` event naming `ref`.
 */
export interface OpenCommand {
  readonly kind: 'open';
  readonly to: number;
  readonly protoID: number;
  /** Application handle reported back with the outcome. */
  readonly ref: string;
  /** Attributes besides OPEN_MESSAGE_NUMBER (which the engine puts first, §4.2.3). */
  readonly attributes?: readonly AttributeLike[];
  /** Open the transmit stream of a conduit (§3.4.3 create_conduit). */
  readonly conduit?: boolean;
}

/** Close the stream (CLOSE, §4.2.7). */
export interface CloseCommand {
  readonly kind: 'close';
  readonly stream: StreamRef;
}

/** STATUS with Request_Status_of_Remote (§3.5.1.9, §3.6.4). */
export interface StatusQueryCommand {
  readonly kind: 'status-query';
  readonly stream: StreamRef;
}

/** §3.8.3: query every open stream to `node`. */
export interface VerifyCommand {
  readonly kind: 'verify';
  readonly node: number;
}

/**
 * The node is gone (its link is down, decision FF4): every stream to it is closed here with cause
 * 'peer-lost', without CLOSE, and the node is suspect with `reason` (§3.7.1 as for an unanswered
 * query, close.ts `peerLost`).
 */
export interface PeerLostCommand {
  readonly kind: 'peer-lost';
  readonly node: number;
  readonly reason: string;
}

/** Send a PDU on an open tx stream (DATA messages or a Type 9 PDU, §4.3). */
export interface SendCommand {
  readonly kind: 'send';
  readonly stream: StreamRef;
  readonly pdu: Uint8Array;
}

/** Ethernet broadcast (§7.3.2): multicast ID, or unicast on stream 0xF000 to every member. */
export interface BroadcastCommand {
  readonly kind: 'broadcast';
  readonly frame: Uint8Array;
  /** Members for unicast broadcast (§7.3.2.2). */
  readonly members?: readonly number[];
}

/** Receiver-side flow control of an rx stream (§4.2.6): XOFF or XON. */
export interface FlowCommand {
  readonly kind: 'xoff' | 'xon';
  readonly stream: StreamRef;
}

/** Send a user-defined message (<CMD> 0xF0–0xFF, §4.2.9) to `to`. */
export interface UserDefinedCommand {
  readonly kind: 'userdefined';
  readonly to: number;
  readonly cmd: number;
  readonly streamID: number;
  readonly data: Uint8Array;
}

/** Timer names of a `SessionEngine` (pending requests, flow control, RTS); opaque to the driver. */
export type SessionTimerName = string;

/**
 * What `SessionEngine.handle` takes: received messages and PDUs, contacts found by discovery, the
 * application's commands, timer expiries.
 */
export type SessionInput =
  | MessageInput
  | PduInput
  | ContactInput
  | RequestCommand
  | OpenCommand
  | CloseCommand
  | StatusQueryCommand
  | VerifyCommand
  | PeerLostCommand
  | SendCommand
  | BroadcastCommand
  | FlowCommand
  | UserDefinedCommand
  | TimerInput;
