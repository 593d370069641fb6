/**
 * What the flow arbitration of an end point counts (arbitration.ts). Each counter is also
 * reported to the results probe as `arb.<name>`, so a run's `counts` sum them over the fabric.
 */
import type { ArbRxEventName, ArbTxEventName } from '../../flow/arbitration-types.ts';

export const ARB_COUNTERS = [
  // Source side (ArbTx).
  /** New REQUESTs sent (rule 1, 4 "shall advance"). */
  'requests',
  /** REQUESTs re-sent with the same sequence bit after requestTimeout (rule 3 1). */
  'reissued',
  /** Grants that became the flow's current grant (XON(ARB) accepted, pipelined ones when they take over). */
  'granted',
  /** XOFF(ARB) answers to a REQUEST (rule 2, §2.2.1 Figure 2-1). */
  'rejected',
  /** RELEASE sent (rules 7, 8). */
  'released',
  /** XOFF(ARB) taking a grant back (rule 8, §2.4.8 2). */
  'revoked',
  /** XON/XOFF(ARB) matching no outstanding REQUEST (e.g. the answer to a re-sent one). */
  'stale',
  /** Requests the engine held until rule 11 or the sequence bit let them go. */
  'deferred',
  /** Requests the engine refused: two already waited (rule 11). */
  'requestRefused',
  /** Data segments ArbTx refused: a PDU started without a grant. Correct gating never does it. */
  'refused',
  /** Times a flow started waiting for a grant with a PDU ready to start. */
  'waits',
  /** ps flows spent waiting for a grant with a PDU ready to start (ended waits only). */
  'waitPs',
  // Destination side (ArbRx).
  /** Resources granted (XON(ARB) for a queued or new REQUEST). */
  'allocated',
  /** Resources freed, for any reason. */
  'freed',
  /** REQUESTs that had to wait for a resource (rule 9). */
  'queued',
  /** XON(ARB) re-sent for a REQUEST reissued with the granted sequence bit (rules 4, 10). */
  'regranted',
  /** Copies of a REQUEST already queued or served. */
  'duplicates',
  /** XOFF(ARB) sent by destinations (rejections and reclaims). */
  'xoffArbSent',
  /** §2.4.8: single-PDU resources freed by the idle timeout. */
  'idleFreed',
  /** §2.4.8 2: multi-PDU resources freed without RELEASE ("packet loss could result"). */
  'asyncFreed',
  /** Data segments that reached a destination on a flow holding no resource there. */
  'unexpectedSegments',
  /** RELEASE naming no multi-PDU resource of its flow and sequence bit. */
  'staleReleases',
  /** Data packets whose prio/CRF name no request flow (Part 9 Table 2-1 "Illegal"). */
  'unknownFlow',
  // Either side.
  /** 'arb' packets that carry no Type 7 packet. */
  'malformed',
  /** Type 7 messages neither engine acts on (other commands, another end point, reserved flowID). */
  'ignored',
] as const;

export type ArbCounterName = (typeof ARB_COUNTERS)[number];

/** ArbTx events by counter; `request-timeout` is counted as the reissue it causes. */
export const TX_EVENT_COUNTER: Readonly<Record<ArbTxEventName, ArbCounterName>> = {
  'rejected': 'rejected',
  'request-timeout': 'reissued',
  'stale-response': 'stale',
  'revoked': 'revoked',
  'request-refused': 'requestRefused',
  'request-deferred': 'deferred',
  'not-arbitrated': 'ignored',
  'ignored': 'ignored',
};

/** ArbRx events by counter; null: counted from the `freed` output instead (`possible-loss` is the `async` free). */
export const RX_EVENT_COUNTER: Readonly<Record<ArbRxEventName, ArbCounterName | null>> = {
  'queued': 'queued',
  'regrant': 'regranted',
  'duplicate-request': 'duplicates',
  'possible-loss': null,
  'unexpected-segment': 'unexpectedSegments',
  'stale-release': 'staleReleases',
  'arbitration-disabled': 'ignored',
  'ignored': 'ignored',
};
