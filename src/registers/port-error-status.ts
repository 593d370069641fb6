import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, bitMask, fieldMask } from './fields.ts';
import { LP_SERIAL_LAYOUT, LP_SERIAL_MAX_PORTS, LpSerialMap } from './port-control.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

/**
 * Port n Error and Status CSR of the LP-Serial extended features block (Part 6 §7.6.10 Table
 * 7-16): "RM-I Block Offset 0x58, 78, ..., 238", "RM-II Block Offset 0x58, 98, ..., 418", in
 * every LP-Serial block ID (Part 6 §7.5.5 Table 7-4, §7.5.6 Table 7-5: X for 0x0001–0x0003 and
 * 0x0009).
 *
 * What riodp models: a port whose link is up reads Port OK ("The input and output ports are
 * initialized and the port is exchanging error-free control symbols with the attached device"),
 * one without a link Port Uninitialized ("Input and output ports are not initialized. This bit and
 * bit 30 are mutually exclusive"), both read-only, bit 31 reset 0b1. The element has no error
 * recovery model, so the error and retry status bits stay 0b0; the capability bits whose reset
 * is "implementation dependent" (idle sequences, IDLE3, DME, Port Unavailable) read 0b0: idle
 * sequence 1, nothing else supported, port available; the enables of unsupported features stay
 * 0b0 ("The port shall not allow this bit to be set unless ... supported").
 */
export const CLAUSE_PORT_ERROR_STATUS = 'Part 6 §7.6.10 Table 7-16';
export const PORT_ERROR_STATUS_BLOCK_OFFSET = 0x58;

export const portErrorStatusView = new RegisterView('Port n Error and Status CSR', CLAUSE_PORT_ERROR_STATUS, {
  idleSequence2Support: { bit: 0, width: 1 },
  idleSequence2Enable: { bit: 1, width: 1 },
  idleSequence: { bit: 2, width: 2 },
  flowControlMode: { bit: 4, width: 1 },
  idle3Supported: { bit: 8, width: 1 },
  idle3Enabled: { bit: 9, width: 1 },
  outputRetryEncountered: { bit: 11, width: 1 },
  outputRetried: { bit: 12, width: 1 },
  outputRetryStopped: { bit: 13, width: 1 },
  outputErrorEncountered: { bit: 14, width: 1 },
  outputErrorStopped: { bit: 15, width: 1 },
  inputRetryStopped: { bit: 21, width: 1 },
  inputErrorEncountered: { bit: 22, width: 1 },
  inputErrorStopped: { bit: 23, width: 1 },
  dmeSupported: { bit: 24, width: 1 },
  dmeEnabled: { bit: 25, width: 1 },
  portWriteDisabled: { bit: 26, width: 1 },
  portWritePending: { bit: 27, width: 1 },
  portUnavailable: { bit: 28, width: 1 },
  portError: { bit: 29, width: 1 },
  portOk: { bit: 30, width: 1 },
  portUninitialized: { bit: 31, width: 1 },
} as const);

export const PORT_ERROR_STATUS_BITS = {
  /** Bit 30, read-only. */
  portOk: bitMask(30),
  /** Bit 31, read-only, reset 0b1. */
  portUninitialized: bitMask(31),
  /** Bit 26, read/write, reset 0b0. */
  portWriteDisabled: bitMask(26),
  /** "Once set, remains set until written with a logic 1 to clear": bits 11, 14, 22, 27, 29. */
  writeOneToClear: (bitMask(11) | bitMask(14) | bitMask(22) | bitMask(27) | bitMask(29)) >>> 0,
  /** Bits 5–7, 10 and 16–20: "Reserved". */
  reserved: (fieldMask(5, 3) | bitMask(10) | fieldMask(16, 5)) >>> 0,
} as const;

export function portErrorStatusOffset(blockBase: number, port: number, map: LpSerialMap = LpSerialMap.I): number {
  if (!Number.isInteger(port) || port < 0 || port >= LP_SERIAL_MAX_PORTS) {
    throw new RegisterError(RegisterErrorCode.outOfRange, blockBase, 'Port n Error and Status CSR', CLAUSE_PORT_ERROR_STATUS, `port ${String(port)} is outside 0..${LP_SERIAL_MAX_PORTS - 1}`);
  }
  return blockBase + PORT_ERROR_STATUS_BLOCK_OFFSET + LP_SERIAL_LAYOUT[map].stride * port;
}

/**
 * The register as Table 7-16 gives its access types: Port-write Disabled read/write; the
 * "written with a logic 1 to clear" bits cleared by a 1 (a 0 leaves them); everything else
 * read-only to MAINTENANCE writes, reserved bits 0.
 */
export function portErrorStatusRegister(offset: number, port: number): RegisterSpec {
  const w1c = PORT_ERROR_STATUS_BITS.writeOneToClear;
  const rw = PORT_ERROR_STATUS_BITS.portWriteDisabled;
  return {
    offset,
    name: `Port ${port} Error and Status CSR`,
    kind: RegisterKind.csr,
    clause: CLAUSE_PORT_ERROR_STATUS,
    reset: PORT_ERROR_STATUS_BITS.portUninitialized,
    writable: (w1c | rw) >>> 0,
    reserved: PORT_ERROR_STATUS_BITS.reserved,
    onWrite: ({ current, value, merged, source }) => {
      if (source === 'local') return merged;
      const kept = (current & ~(w1c | rw)) | (current & w1c & ~value) | (value & rw);
      return kept >>> 0;
    },
  };
}

/** The port's link state as the element sees it: up ⇒ Port OK, down ⇒ Port Uninitialized (mutually exclusive). */
export function setPortLinkState(space: RegisterSpace, offset: number, up: boolean): void {
  const { portOk, portUninitialized } = PORT_ERROR_STATUS_BITS;
  const word = space.readWord(offset);
  const next = ((word & ~(portOk | portUninitialized)) | (up ? portOk : portUninitialized)) >>> 0;
  if (next !== word) space.writeLocal(offset, next);
}

/** What a reader of the register learns about the link: 'ok', 'uninitialized', or 'other' (neither bit, e.g. an error state). */
export function portLinkState(word: number): 'ok' | 'uninitialized' | 'other' {
  const { portOk, portUninitialized } = PORT_ERROR_STATUS_BITS;
  if ((word & portOk) !== 0 && (word & portUninitialized) === 0) return 'ok';
  if ((word & portUninitialized) !== 0 && (word & portOk) === 0) return 'uninitialized';
  return 'other';
}
