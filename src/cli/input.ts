import { createInterface } from 'node:readline';

export interface Item {
  /** 1-based line number on stdin, or argument position. */
  readonly index: number;
  readonly text: string;
}

/**
 * Items come from the arguments when there are any, one item each, else from stdin, one per line;
 * blank lines and lines starting with '#' are skipped so that users can annotate their traces.
 */
export async function* items(args: readonly string[]): AsyncGenerator<Item> {
  if (args.length > 0) {
    for (let i = 0; i < args.length; i++) yield { index: i + 1, text: args[i] as string };
    return;
  }
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    yield { index: n, text: t };
  }
}
