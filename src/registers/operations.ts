import { RegisterView, bitMask, checkRsrv, fieldMask } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpec } from './space.ts';

/**
 * Source Operations CAR (0x18) and Destination Operations CAR (0x1C). One layout serves both:
 * Part 10 §5.4.1 Table 5-3 / §5.4.2 Table 5-4 define bit 12 Data-Streaming TM (0x00080000) and
 * bit 13 Data-streaming (0x00040000); Part 1 §5.4.7–5.4.8 Tables 5-9/5-10 define bits 16–19
 * and 22–29 and Part 2 §5.4.1–5.4.2 bits 20 (data message) and 21 (doorbell). Bits 14–15 and
 * 30–31 are implementation-defined; 0–11 are reserved.
 *
 * @example
 * ```ts
 * import { OperationsCar, SOURCE_OPERATIONS_OFFSET, buildEndpointRegisters, decodeOperations } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * const ops = decodeOperations(space.readWord(SOURCE_OPERATIONS_OFFSET), OperationsCar.source);
 * console.log(ops.dataStreaming, ops.dataMessage); // true false: it sends Type 9, not Type 11
 * ```
 */
export const SOURCE_OPERATIONS_OFFSET = 0x18;
/**
 * Offset of the Destination Operations CAR.
 *
 * @example
 * ```ts
 * import { DESTINATION_OPERATIONS_OFFSET, OperationsCar, buildEndpointRegisters, decodeOperations } from 'riodp/registers';
 *
 * // Before streaming to a peer, check that it accepts Type 9 packets.
 * const peer = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * decodeOperations(peer.readWord(DESTINATION_OPERATIONS_OFFSET), OperationsCar.destination).dataStreaming; // → true
 * ```
 */
export const DESTINATION_OPERATIONS_OFFSET = 0x1c;
export const CLAUSE_SOURCE_OPERATIONS = 'Part 10 §5.4.1 Table 5-3';
export const CLAUSE_DESTINATION_OPERATIONS = 'Part 10 §5.4.2 Table 5-4';

/**
 * The Operations CARs' data streaming bits (Part 10 §5.4.1 Table 5-3, §5.4.2 Table 5-4).
 *
 * @example
 * ```ts
 * import { OPERATIONS_FIELDS, OperationsCar, decodeOperations } from 'riodp/registers';
 *
 * // The operations a Destination Operations CAR (read as 0x000C0C00) accepts.
 * const ops = decodeOperations(0x000c0c00, OperationsCar.destination);
 * const names = (Object.keys(OPERATIONS_FIELDS) as (keyof typeof OPERATIONS_FIELDS)[]).filter((k) => ops[k] === true);
 * // → [ 'dataStreamingTrafficManagement', 'dataStreaming', 'dataMessage', 'doorbell' ]
 * ```
 */
export const OPERATIONS_FIELDS = {
  dataStreamingTrafficManagement: { bit: 12, width: 1 },
  dataStreaming: { bit: 13, width: 1 },
  implementationDefinedBits14To15: { bit: 14, width: 2 },
  read: { bit: 16, width: 1 },
  write: { bit: 17, width: 1 },
  streamingWrite: { bit: 18, width: 1 },
  writeWithResponse: { bit: 19, width: 1 },
  dataMessage: { bit: 20, width: 1 },
  doorbell: { bit: 21, width: 1 },
  atomicCompareAndSwap: { bit: 22, width: 1 },
  atomicTestAndSwap: { bit: 23, width: 1 },
  atomicIncrement: { bit: 24, width: 1 },
  atomicDecrement: { bit: 25, width: 1 },
  atomicSet: { bit: 26, width: 1 },
  atomicClear: { bit: 27, width: 1 },
  atomicSwap: { bit: 28, width: 1 },
  portWrite: { bit: 29, width: 1 },
  implementationDefinedBits30To31: { bit: 30, width: 2 },
} as const;

/**
 * The word masks of those bits.
 *
 * @example
 * ```ts
 * import { OPERATIONS_BITS } from 'riodp/registers';
 *
 * const destinationOps = 0x00040000; // a MAINTENANCE read of 0x1C
 * const acceptsType9 = (destinationOps & OPERATIONS_BITS.dataStreaming) !== 0;                // → true
 * const acceptsTm = (destinationOps & OPERATIONS_BITS.dataStreamingTrafficManagement) !== 0; // → false
 * ```
 */
export const OPERATIONS_BITS = {
  dataStreamingTrafficManagement: bitMask(12),
  dataStreaming: bitMask(13),
  dataMessage: bitMask(20),
} as const;

/**
 * The Source Operations CAR's view.
 *
 * @example
 * ```ts
 * import { sourceOperationsView } from 'riodp/registers';
 *
 * const ops = sourceOperationsView.unpack(0x00040400);
 * console.log(ops.dataStreaming, ops.doorbell, ops.read); // true true false
 * ```
 */
export const sourceOperationsView = new RegisterView('Source Operations CAR', CLAUSE_SOURCE_OPERATIONS, OPERATIONS_FIELDS);
/**
 * The Destination Operations CAR's view.
 *
 * @example
 * ```ts
 * import { destinationOperationsView } from 'riodp/registers';
 *
 * // A destination that accepts data messages (Type 11) and nothing else.
 * destinationOperationsView.pack({ ...destinationOperationsView.unpack(0), dataMessage: true }); // → 0x00000800
 * ```
 */
export const destinationOperationsView = new RegisterView('Destination Operations CAR', CLAUSE_DESTINATION_OPERATIONS, OPERATIONS_FIELDS);
/**
 * The Source Operations CAR at its offset.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, sourceOperations } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256, tm: { types: 'BASIC' } } });
 * sourceOperations.get(space, 'dataStreamingTrafficManagement'); // → true
 * ```
 */
export const sourceOperations = sourceOperationsView.at(SOURCE_OPERATIONS_OFFSET);
/**
 * The Destination Operations CAR at its offset.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, destinationOperations } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ messaging: true });
 * const ops = destinationOperations.read(space);
 * console.log(ops.dataMessage, ops.doorbell, ops.dataStreaming); // true true false
 * ```
 */
export const destinationOperations = destinationOperationsView.at(DESTINATION_OPERATIONS_OFFSET);

/** A decoded Operations CAR. */
export type Operations = Unpacked<typeof OPERATIONS_FIELDS>;
/**
 * Which Operations CAR: source or destination.
 *
 * @example
 * ```ts
 * import { OperationsCar, decodeOperations, encodeOperations } from 'riodp/registers';
 *
 * // Both CARs share one layout; the argument names the register in errors and clauses.
 * const ops = decodeOperations(0x00040000, OperationsCar.source);
 * encodeOperations({ ...ops, doorbell: true }, OperationsCar.destination); // → 0x00040400
 * ```
 */
export const OperationsCar = { source: 'source', destination: 'destination' } as const;
export type OperationsCar = (typeof OperationsCar)[keyof typeof OperationsCar];

function viewOf(which: OperationsCar): RegisterView<typeof OPERATIONS_FIELDS> {
  return which === OperationsCar.source ? sourceOperationsView : destinationOperationsView;
}

function offsetOf(which: OperationsCar): number {
  return which === OperationsCar.source ? SOURCE_OPERATIONS_OFFSET : DESTINATION_OPERATIONS_OFFSET;
}

/**
 * Decodes a Source or Destination Operations CAR word.
 *
 * @example
 * ```ts
 * import { OperationsCar, attemptRegister, decodeOperations } from 'riodp/registers';
 *
 * decodeOperations(0x000c0000, OperationsCar.destination).dataStreamingTrafficManagement; // → true
 * // Bits 0–11 are reserved; strict decoding refuses a word that sets one.
 * const r = attemptRegister(() => decodeOperations(0x80040000, OperationsCar.source, { strict: true }));
 * if (!r.ok) console.log(r.error.detail); // reserved bits 0x80000000 are not 0
 * ```
 */
export function decodeOperations(word: number, which: OperationsCar, opts: ViewDecodeOptions = {}): Operations {
  const view = viewOf(which);
  const value = view.unpack(word);
  if (opts.strict === true) checkRsrv(value.rsrv, offsetOf(which), view.register, view.clause);
  return value;
}

/**
 * The Operations CAR word of its fields.
 *
 * @example
 * ```ts
 * import { OperationsCar, decodeOperations, encodeOperations } from 'riodp/registers';
 *
 * const none = decodeOperations(0, OperationsCar.source);
 * encodeOperations({ ...none, dataStreaming: true, doorbell: true }, OperationsCar.source); // → 0x00040400
 * ```
 */
export function encodeOperations(value: Operations, which: OperationsCar): number {
  return viewOf(which).pack(value, offsetOf(which));
}

export function operationsRegister(which: OperationsCar, reset: number): RegisterSpec {
  const view = viewOf(which);
  return {
    offset: offsetOf(which),
    name: view.register,
    kind: RegisterKind.car,
    clause: view.clause,
    reset,
    reserved: ~view.mask >>> 0,
    implDefined: (fieldMask(14, 2) | fieldMask(30, 2)) >>> 0,
  };
}
