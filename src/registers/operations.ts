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
 */
export const SOURCE_OPERATIONS_OFFSET = 0x18;
/** Offset of the Destination Operations CAR. */
export const DESTINATION_OPERATIONS_OFFSET = 0x1c;
export const CLAUSE_SOURCE_OPERATIONS = 'Part 10 §5.4.1 Table 5-3';
export const CLAUSE_DESTINATION_OPERATIONS = 'Part 10 §5.4.2 Table 5-4';

/** The Operations CARs' data streaming bits (Part 10 §5.4.1 Table 5-3, §5.4.2 Table 5-4). */
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

/** The word masks of those bits. */
export const OPERATIONS_BITS = {
  dataStreamingTrafficManagement: bitMask(12),
  dataStreaming: bitMask(13),
  dataMessage: bitMask(20),
} as const;

/** The Source Operations CAR's view. */
export const sourceOperationsView = new RegisterView('Source Operations CAR', CLAUSE_SOURCE_OPERATIONS, OPERATIONS_FIELDS);
/** The Destination Operations CAR's view. */
export const destinationOperationsView = new RegisterView('Destination Operations CAR', CLAUSE_DESTINATION_OPERATIONS, OPERATIONS_FIELDS);
/** The Source Operations CAR at its offset. */
export const sourceOperations = sourceOperationsView.at(SOURCE_OPERATIONS_OFFSET);
/** The Destination Operations CAR at its offset. */
export const destinationOperations = destinationOperationsView.at(DESTINATION_OPERATIONS_OFFSET);

/** A decoded Operations CAR. */
export type Operations = Unpacked<typeof OPERATIONS_FIELDS>;
/** Which Operations CAR: source or destination. */
export const OperationsCar = { source: 'source', destination: 'destination' } as const;
export type OperationsCar = (typeof OperationsCar)[keyof typeof OperationsCar];

function viewOf(which: OperationsCar): RegisterView<typeof OPERATIONS_FIELDS> {
  return which === OperationsCar.source ? sourceOperationsView : destinationOperationsView;
}

function offsetOf(which: OperationsCar): number {
  return which === OperationsCar.source ? SOURCE_OPERATIONS_OFFSET : DESTINATION_OPERATIONS_OFFSET;
}

/** Decodes a Source or Destination Operations CAR word. */
export function decodeOperations(word: number, which: OperationsCar, opts: ViewDecodeOptions = {}): Operations {
  const view = viewOf(which);
  const value = view.unpack(word);
  if (opts.strict === true) checkRsrv(value.rsrv, offsetOf(which), view.register, view.clause);
  return value;
}

/** The Operations CAR word of its fields. */
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
