import type { ControlSymbol64 } from '../wire/symbol64.ts';
import { vcOfVcid } from '../wire/symbol-parameters.ts';
import { VOQ_CS64, decodeVoqCs64, vcOfVcInd } from '../wire/voq-cs64.ts';

/**
 * What a received Control Symbol 64 tells the VoQ receiver (Part 12 §3.2): a VoQ-backpressure
 * symbol (stype0 0b1101) carries VC_IND ‖ status ‖ group in parameter0‖parameter1, split with the
 * port's RX Port Group Size; any other stype0 carries no VoQ message.
 */
export type Cs64Reading =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'no-message'; readonly stype0: number }
  | { readonly kind: 'reserved-vc-ind'; readonly vcInd: number }
  | {
    readonly kind: 'message';
    /** The VC the message names (NO_VC for one the links do not run), or 'all'. */
    readonly vc: number | 'all';
    readonly group: number;
    readonly perGroup: number;
    readonly status: number;
  };

/**
 * `noVc` is what a VC_IND naming an optional VC reads as on links running VC0 only. Table 3-3's
 * VC_IND was "chosen to allow the Control Symbol 64 VC_IND value to be an extension of the Control
 * Symbol 48 VC_Status control symbol VCID encoding": VC1–VC8 fold by Part 6 Table 3-12 as a VCID
 * does when fewer than 8 VCs are active.
 */
export function readCs64(s: ControlSymbol64, rxPortGroupSize: number, vcs: 0 | 1 | 2 | 4 | 8, noVc: number): Cs64Reading {
  // Inputs also arrive as JSON (`riodp model`): the static type is not trusted.
  const u: unknown = s;
  if (typeof u !== 'object' || u === null || (u as { link?: unknown }).link !== 'cs64' || !bits(s.stype0, 4) || !bits(s.parameter0, 12) || !bits(s.parameter1, 12)) return { kind: 'invalid' };
  if (s.stype0 !== VOQ_CS64.stype0) return { kind: 'no-message', stype0: s.stype0 };
  const m = decodeVoqCs64(s.parameter0, s.parameter1, { part12GroupSize: rxPortGroupSize });
  const named = vcOfVcInd(m.vcInd);
  // "Reception of a reserved value in the VC_IND field shall cause the receiving endpoint to
  // ignore the VoQ Backpressure control symbol without error."
  if (named === undefined) return { kind: 'reserved-vc-ind', vcInd: m.vcInd };
  let vc: number | 'all' = named;
  if (named !== 'all' && named !== 0) vc = vcs === 0 ? noVc : vcOfVcid(m.vcInd, vcs);
  return { kind: 'message', vc, group: m.portGroup, perGroup: VOQ_CS64.parameterBits - m.portGroupSize, status: m.portStatus };
}

function bits(v: unknown, n: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** n;
}
