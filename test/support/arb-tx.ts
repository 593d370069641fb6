/**
 * Fixtures for the flow arbitration transmitter tests: the inputs an `ArbTx` at TX receives from
 * a receiver RX (XON/XOFF(ARB) addressed per the arbitration-types.ts header) and from its
 * application, and filters over its outputs.
 */
import type { ArbMode, ArbTxEventName, ArbTxInput, ArbTxOutput, SegmentKind } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import type { Type7Packet } from '../../src/wire/type7.ts';

export const TX = 0x10;
export const RX = 0x20;

/** XON(ARB)/XOFF(ARB) from `from` to TX: destinationID = transmitter, tgtdestinationID = receiver. */
export function arbAnswer(command: 'XON_ARB' | 'XOFF_ARB', seq: number, flowID: FlowIdLabel = '0A', from = RX, to = TX): ArbTxInput {
  return { kind: 'ccp', packet: makeCcp({ destinationID: to, tgtdestinationID: from, tt: 0, command, seq, flowID, soc: 1 }) };
}
export const xonArb = (seq: number, flowID: FlowIdLabel = '0A', from = RX): ArbTxInput => arbAnswer('XON_ARB', seq, flowID, from);
export const xoffArb = (seq: number, flowID: FlowIdLabel = '0A', from = RX): ArbTxInput => arbAnswer('XOFF_ARB', seq, flowID, from);

export const request = (mode: ArbMode, flowID: FlowIdLabel = '0A', destinationID = RX): ArbTxInput => ({ kind: 'request', destinationID, flowID, mode });
export const segment = (kind: SegmentKind, flowID: FlowIdLabel = '0A', destinationID = RX): ArbTxInput => ({ kind: 'segment', destinationID, flowID, segment: kind });
export const release = (flowID: FlowIdLabel = '0A', destinationID = RX): ArbTxInput => ({ kind: 'release', destinationID, flowID });
export const timer = (name: string): ArbTxInput => ({ kind: 'timer', name });

export function sent(out: readonly ArbTxOutput[]): Type7Packet[] {
  return out.flatMap((o) => (o.kind === 'send' ? [o.packet] : []));
}

export function events(out: readonly ArbTxOutput[]): ArbTxEventName[] {
  return out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
}

export function kinds(out: readonly ArbTxOutput[]): string[] {
  return out.map((o) => o.kind);
}

/** The single output of a kind, for asserting its fields. */
export function only<K extends ArbTxOutput['kind']>(out: readonly ArbTxOutput[], kind: K): Extract<ArbTxOutput, { kind: K }> {
  const found = out.filter((o): o is Extract<ArbTxOutput, { kind: K }> => o.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind} output, got ${found.length}: ${JSON.stringify(out)}`);
  return found[0] as Extract<ArbTxOutput, { kind: K }>;
}
