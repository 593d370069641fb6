import { buildSymbol64 } from '../wire/symbol64.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import { Stype0 } from '../wire/symbol-types.ts';
import { VOQ_CS64, encodeVoqCs64, vcIndOfVc } from '../wire/voq-cs64.ts';
import { PART12_VOQ, SEED_VOQ, encodeStype2 } from '../wire/voq-stype2.ts';
import { ALL_VCS } from './generator-link.ts';
import type { LinkState, PendingGroup } from './generator-link.ts';
import type { CarrierFields, VoqMessage } from './generator-types.ts';

/**
 * How the generator writes a message it has taken: the VoqMessage it reports, the CS48 stype2
 * value (§3.1) and the CS64 symbol (Part 12 §3.2), and the checks of what the link layer offers.
 */

/** The message for a group whose status bits are `bits` (bit k = port offset k). */
export function messageOf(link: LinkState, e: PendingGroup, bits: number): VoqMessage {
  const base = e.group * link.layout.portsPerGroup;
  const congestedPorts: number[] = [];
  for (let o = 0; o < link.layout.portsPerGroup; o++) if ((bits >>> o) & 1) congestedPorts.push(base + o);
  return { group: e.group, vc: e.scope === ALL_VCS ? null : e.scope, portStatus: bits, congestedPorts, reason: e.reason };
}

/** The 14-bit stype2 of a message in the link's format and TX Port Group Size. */
export function stype2Of(link: LinkState, m: VoqMessage): number {
  const seed = link.layout.format === 'seed';
  return encodeStype2({
    format: link.layout.format,
    portGroupSize: link.layout.groupBits,
    cmd: seed ? SEED_VOQ.cmdBackpressure : PART12_VOQ.cmdBackpressure,
    portGroup: m.group,
    portStatus: m.portStatus,
  });
}

/**
 * The CS64 VoQ-backpressure symbol of a message: stype0 0b1101, VC_IND ‖ status ‖ group in
 * parameter0‖parameter1 (Figure 3-4). §3.3 "When Control Symbol 64 is used, VoQ Backpressure per
 * VC is accomplished by using VC_IND field values other than 0b11111 (all VCs)": a per-VC message
 * names its VC (Table 3-3), any other the all-VCs value "used when VoQ backpressure per VC is
 * disabled".
 */
export function cs64SymbolOf(link: LinkState, m: VoqMessage, stype1: number): ControlSymbol64 {
  const { parameter0, parameter1 } = encodeVoqCs64({
    portGroupSize: link.layout.groupBits,
    vcInd: vcIndOfVc(m.vc ?? 'all'),
    portGroup: m.group,
    portStatus: m.portStatus,
  });
  return buildSymbol64({ link: 'cs64', stype0: VOQ_CS64.stype0, parameter0, parameter1, stype1 }, { part12GroupSize: link.layout.groupBits });
}

export function inRange(v: unknown, bits: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** bits;
}

export function badStype0(stype0: number, vcid: number | undefined): string | undefined {
  if (!inRange(stype0, 3)) return `stype0 ${String(stype0)} is not 3 bits`;
  if (stype0 === Stype0.vcStatus && !inRange(vcid, 3)) return `a VC_Status carrier needs a 3-bit vcid, got ${String(vcid)}`;
  return undefined;
}

/** Part 6 Figure 3-2 field widths of a CS48. */
export function badCarrier(c: CarrierFields): string | undefined {
  if (typeof c !== 'object') return 'symbol must be an object';
  const widths = { stype0: 3, parameter0: 6, parameter1: 6, stype1: 3, cmd: 3 } as const;
  for (const [field, bits] of Object.entries(widths)) {
    const v = c[field as keyof CarrierFields];
    if (!inRange(v, bits)) return `${field} ${String(v)} is not ${bits} bits`;
  }
  return undefined;
}
