/**
 * The engines `riodp model` runs, with a one-line summary each. Kept free of imports so that
 * `riodp --help` and `riodp model --help` list them without loading any engine.
 */
export const ENGINE_NAMES = ['ccp-endpoint', 'congestion-point', 'arb-tx', 'arb-rx', 'segmenter', 'reassembler', 'tm-ingress', 'tm-egress', 'voq-gen', 'voq-rx', 'smp'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export const ENGINE_SUMMARIES: Readonly<Record<EngineName, string>> = {
  'ccp-endpoint': 'source end point: XON/XOFF counters and the orphaned XOFF timer (Part 9 §2.4.2.3, §2.4.5, A.2)',
  'congestion-point': 'switch port or end point buffer: watermarks, controlled flow list, XOFF/XON CCPs (Part 9 §2.4.2.2, §2.4.6, A.1)',
  'arb-tx': 'flow arbitration transmitter: REQUEST, grant, segments, RELEASE (Part 9 §2.2, §2.4.7)',
  'arb-rx': 'flow arbitration receiver: resource pool, XON(ARB)/XOFF(ARB), idle timeouts (Part 9 §2.2, §2.4.7, §2.4.8)',
  segmenter: 'data streaming source: PDUs into Type 9 segments, one per pull; aborts (Part 10 §3.2.3–§3.2.5)',
  reassembler: 'data streaming destination: Type 9 segments into PDUs, defective PDUs by rule (Part 10 §3.2.5)',
  'tm-ingress': 'traffic management, data source: queues obeying XOFF/XON, rates and credits; Q_STATUS, CREDIT STATUS (Part 10 §3.4)',
  'tm-egress': 'traffic management, data destination: XOFF/XON, REDUCE/INCREASE, ALLOCATE from its policy (Part 10 §3.4)',
  'voq-gen': 'VoQ backpressure, downstream device: port congestion into stype2 messages per link (VoQ Backpressure §4.2, Table 5-4)',
  'voq-rx': 'VoQ backpressure, upstream device: staging queues stopped and restarted by stype2 messages (VoQ Backpressure §2.3, §4.3)',
  smp: 'session management end point: REQUEST/ADVERTISE, OPEN/ACCEPT/REFUSE, FLOW_CONTROL, CLOSE, STATUS, DATA, retries and suspects (Annex 2 Chapter 3, §4.2, §4.3)',
};

/** `schema` of the header line and of the optional first input line (docs/model.md "Schema version"). */
export const MODEL_SCHEMA = 'riodp-model/1';
export const MODEL_SCHEMA_MAJOR = 1;
