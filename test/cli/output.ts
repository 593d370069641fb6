import assert from 'node:assert/strict';

/** The non-empty lines of an output stream. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

export interface ErrorLine {
  readonly where: 'line' | 'argument';
  readonly index: number;
  readonly field: string;
  readonly offset: number;
  readonly detail: string;
  readonly clause: string;
}

/** `riodp: line 4: crc at byte 10: CRC 0x9904, computed 0x9903 (Part 6 §2.4.1)` (README, exit codes). */
const ERROR_LINE = /^riodp: (line|argument) (\d+): (\S+) at byte (\d+): (.+) \(([^()]+)\)$/;

/**
 * Parses stderr as the README promises it: one line per bad item naming the field, the byte
 * offset and the clause, and nothing else (no stack trace, no "Error:" dump).
 */
export function errorLines(stderr: string): ErrorLine[] {
  assert.doesNotMatch(stderr, /^\s+at /m, 'stderr holds a stack trace');
  return lines(stderr).map((l) => {
    const m = ERROR_LINE.exec(l);
    assert.ok(m, `not a one-line item report: ${JSON.stringify(l)}`);
    const [, where, index, field, offset, detail, clause] = m as unknown as [string, 'line' | 'argument', string, string, string, string, string];
    return { where, index: Number(index), field, offset: Number(offset), detail, clause };
  });
}

/** A JSON object printed as one line (`decode --json`, `riodp model`). */
export type JsonLine = Record<string, unknown>;

/** The JSON objects printed by `decode --json` or `riodp model`, one a line. */
export function jsonLines(stdout: string): JsonLine[] {
  return lines(stdout).map((l) => JSON.parse(l) as JsonLine);
}
