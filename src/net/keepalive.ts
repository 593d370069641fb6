/**
 * Link keepalive: the status control symbol a riodp link sends when it has sent nothing for a
 * while, so that the peer can tell a live link partner from a stopped one.
 *
 * Part 6 §6.5.3.2 "Buffer Status Maintenance": "When a LP-Serial port is in the normal operational
 * state, it shall transmit a control symbol containing the buf_status field for VC0 at least once
 * every 1024 code-groups ... the port shall transmit a status control symbol if no other control
 * symbol containing the buf_status field for VC0 is available for transmission." A TCP link has
 * no idle code-groups; riodp keeps the rule's intent with a period of time instead (decision FF1,
 * docs/conformance.md): a status symbol after `keepaliveMs` without any frame sent.
 *
 * The symbol (Table 3-10): stype0 status, ackID_status 0 (informational; TCP needs no ackIDs,
 * docs/net-framing.md §1), buf_status 63, CS48's "undefined number of maximum sized packet
 * buffers ... relies on retry for flow control" (Table 3-4: TCP's window is the flow control),
 * stype1 NOP, stype2 0 (no VoQ message).
 */
import { Stype0, Stype1 } from '../wire/symbol-types.ts';
import type { SymbolFields } from '../wire/symbol.ts';

/** The keepalive period of riodp's switch and end point processes (a bare Link sends none). */
export const DEFAULT_KEEPALIVE_MS = 100;

export const KEEPALIVE_SYMBOL: SymbolFields = {
  link: 'cs48',
  stype0: Stype0.status,
  parameter0: 0,
  parameter1: 63,
  stype1: Stype1.nop,
  cmd: 0,
  stype2: 0,
};

/**
 * Whether a received CS48 symbol carries nothing but buffer status: stype0 status, stype1 NOP and
 * stype2 0, what a keepalive is. The link absorbs these (counted `statusIn`); every other symbol,
 * CS64 included, goes to the application.
 */
export function isStatusOnly(symbol: { readonly link: string; readonly stype0: number; readonly stype1: number; readonly stype2?: number }): boolean {
  return symbol.link === 'cs48' && symbol.stype0 === Stype0.status && symbol.stype1 === Stype1.nop && (symbol.stype2 ?? 0) === 0;
}

/** What the keepalive needs of a link (link.ts). */
export interface KeepaliveLink {
  readonly state: string;
  readonly writable: boolean;
  /** Frames sent so far (a plain accessor: the tick builds no counters object). */
  readonly framesOut: number;
  sendSymbol(symbol: SymbolFields): boolean;
}

/** Every `ms`, a status symbol when the link is open and has sent no frame since the last look. */
export function startKeepalive(link: KeepaliveLink, ms: number): NodeJS.Timeout {
  let seen = -1;
  return setInterval(() => {
    let out = link.framesOut;
    // The keepalive itself is a frame sent: looked at again after it, so that an idle link sends one every period.
    if (out === seen && link.state === 'open' && link.writable && link.sendSymbol(KEEPALIVE_SYMBOL)) out = link.framesOut;
    seen = out;
  }, ms).unref();
}
