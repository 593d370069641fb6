import type { TmMessage } from '../wire/type9-tm.ts';
import { usesCredit, usesRate } from './tm-mode.ts';
import type { TmModeSetting } from './tm-mode.ts';
import type { TmEgressCommand } from './tm-types.ts';

type DirectiveCommand = Exclude<TmEgressCommand, { message: 'USER_DEFINED' | 'APPLICATION_DEFINED' }>;

function int(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/**
 * Why an egress command cannot be sent in this mode; undefined when it can. Ranges are those of
 * Tables 4-5 and 4-6: REDUCE 0x01–0xFF (0 is MAINTAIN), INCREASE 0x01–0xFE (0xFF is DOUBLE),
 * ALLOCATE 1–255 credits (0 is RETIRE), AU 0–15.
 */
export function checkEgressCommand(c: DirectiveCommand, mode: TmModeSetting): string | undefined {
  if (mode === 'DISABLED') return 'traffic management is disabled';
  switch (c.message) {
    case 'XOFF':
    case 'XON':
      return undefined;
    case 'REDUCE':
    case 'INCREASE':
    case 'DOUBLE':
    case 'MAINTAIN': {
      if (!usesRate(mode)) return `${c.message} needs a rate mode, not ${mode}`;
      if ((c.rate as string) !== 'average' && (c.rate as string) !== 'peak') return `rate must be 'average' or 'peak'`;
      if (c.message === 'REDUCE' && !int(c.amount, 1, 0xff)) return `REDUCE amount ${String(c.amount)} is not 1..255`;
      if (c.message === 'INCREASE' && !int(c.amount, 1, 0xfe)) return `INCREASE amount ${String(c.amount)} is not 1..254`;
      return undefined;
    }
    case 'ALLOCATE':
      if (!usesCredit(mode)) return `ALLOCATE needs a credit mode, not ${mode}`;
      return int(c.credits, 1, 0xff) ? undefined : `ALLOCATE credits ${String(c.credits)} is not 1..255 (0 is RETIRE)`;
    case 'RETIRE':
      if (!usesCredit(mode)) return `RETIRE needs a credit mode, not ${mode}`;
      return int(c.allocationUnit, 0, 15) ? undefined : `allocation unit ${String(c.allocationUnit)} is not 0..15`;
    default:
      return `unknown command ${String((c as { message?: unknown }).message)}`;
  }
}

/** The Table 4-5 message of a rate command (checked by checkEgressCommand). */
export function commandMessage(c: DirectiveCommand): TmMessage {
  switch (c.message) {
    case 'REDUCE':
      return { message: 'REDUCE', rate: c.rate, amount: c.amount, factor: 1 - c.amount / 256 };
    case 'INCREASE':
      return { message: 'INCREASE', rate: c.rate, amount: c.amount, factor: 1 + c.amount / 256 };
    case 'DOUBLE':
    case 'MAINTAIN':
      return { message: c.message, rate: c.rate };
    default:
      return { message: 'MAINTAIN', rate: 'average' };
  }
}
