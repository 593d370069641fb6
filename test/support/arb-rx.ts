import type { ArbMode, ArbRxInput, ArbRxOutput, SegmentKind } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import type { CcpFields, Type7Packet } from '../../src/wire/type7.ts';

/** The receiver's device ID in the arb-rx tests. */
export const RX = 0x20;

/** REQUEST from `src` as the transmitter builds it: destinationID = receiver, tgtdestinationID = src. */
export function req(src: number, flowID: FlowIdLabel, mode: ArbMode, seq: number, over: Partial<CcpFields> = {}): ArbRxInput {
  const command = mode === 'single' ? 'REQUEST_SINGLE_PDU' : 'REQUEST_MULTI_PDU';
  return { kind: 'ccp', packet: makeCcp({ destinationID: RX, tgtdestinationID: src, tt: 0, command, seq, flowID, soc: 1, ...over }) };
}

export function rel(src: number, flowID: FlowIdLabel, seq: number, over: Partial<CcpFields> = {}): ArbRxInput {
  return { kind: 'ccp', packet: makeCcp({ destinationID: RX, tgtdestinationID: src, tt: 0, command: 'RELEASE', seq, flowID, soc: 1, ...over }) };
}

export function seg(src: number, flowID: FlowIdLabel, segment: SegmentKind): ArbRxInput {
  return { kind: 'segment', sourceID: src, flowID, segment };
}

export function sent(out: readonly ArbRxOutput[]): Type7Packet[] {
  return out.flatMap((o) => (o.kind === 'send' ? [o.packet] : []));
}

/**
 * One line per output, for compact assertions:
 * `XON_ARB 1/0A y0`, `allocated 1/0A single y0`, `freed 1/0A release`, `regrant 1/0A y0`,
 * `timer idle:1/0A 1000`, `timer idle:1/0A cancel`.
 */
export function lines(out: readonly ArbRxOutput[]): string[] {
  return out.map((o) => {
    switch (o.kind) {
      case 'send':
        return `${o.packet.command} ${o.packet.destinationID}/${o.packet.flowID} y${o.packet.seq ?? '-'}`;
      case 'allocated':
        return `allocated ${o.sourceID}/${o.flowID} ${o.mode} y${o.seq}`;
      case 'freed':
        return `freed ${o.sourceID}/${o.flowID} ${o.reason}`;
      case 'timer':
        return `timer ${o.name} ${o.at ?? 'cancel'}`;
      case 'event': {
        const flow = o.sourceID === undefined ? '' : ` ${o.sourceID}/${o.flowID ?? '-'}`;
        return `${o.name}${flow}${o.seq === undefined ? '' : ` y${o.seq}`}`;
      }
    }
  });
}

/** `lines` without the timer requests. */
export function acts(out: readonly ArbRxOutput[]): string[] {
  return lines(out.filter((o) => o.kind !== 'timer'));
}
