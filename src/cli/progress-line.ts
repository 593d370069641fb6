import type { Progress } from '../sim/scenario/run.ts';

/** What the progress line needs of its stream; process.stderr by default. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(chunk: string): unknown;
}

/** Carriage return, then ESC [2K (erase the whole line): the next text replaces the last. */
export const ERASE_LINE = '\r\x1b[2K';

/**
 * The one status line of `riodp sim` and `riodp sweep` (issue 7 §5 "shows progress on an
 * interactive terminal"), rewritten in place. Nothing is written when the stream is not a
 * terminal, so that a redirected stderr and CI logs get no control characters. A text equal to
 * the one showing is not written again (a run reports its progress far more often than the
 * percentage changes), and `clear` erases the line only when something is showing, so that the
 * summary that follows starts on a clean line.
 */
export class ProgressLine {
  readonly #stream: ProgressStream;
  readonly #tty: boolean;
  #last = '';

  constructor(stream: ProgressStream = process.stderr) {
    this.#stream = stream;
    this.#tty = stream.isTTY === true;
  }

  /** A scenario run's progress: its variant, which of how many, and the simulated time done. */
  update(p: Progress): void {
    if (!this.#tty) return;
    const pct = Math.floor((100 * p.now) / p.end);
    const run = p.replication === undefined || p.replications === undefined ? '' : ` run ${p.replication + 1}/${p.replications}`;
    this.show(`riodp sim: ${p.variant} (${p.index + 1}/${p.variants})${run} ${pct}%`);
  }

  show(line: string): void {
    if (!this.#tty || line === this.#last) return;
    this.#last = line;
    this.#stream.write(`${ERASE_LINE}${line}`);
  }

  clear(): void {
    if (!this.#tty || this.#last === '') return;
    this.#last = '';
    this.#stream.write(ERASE_LINE);
  }
}
