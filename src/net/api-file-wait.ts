/**
 * How a file transfer stops waiting other than by its peer's answer (api-file.ts sends,
 * api-file-receive.ts receives): a time limit, and a loss reported on its conduit, which gives the
 * transfer up at once (decision FF5: DATA3 has no sequence numbers to resend from).
 */
import type { Stream, StreamLoss } from './api-types.ts';

/** `p`, or a rejection "<what> within <ms> ms" once `ms` have passed. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} within ${ms} ms`));
    }, ms);
  });
  return Promise.race([p, t]).finally(() => {
    clearTimeout(timer);
  });
}

/** The message of a transfer given up for a loss (decision FF5). */
export function lossText(to: number, l: StreamLoss): string {
  return `PDUs ${l.stream.direction === 'tx' ? 'to' : 'from'} node ${to} lost (${l.reason}): ${l.detail}`;
}

/** Rejects with the first loss reported on `c` (either side); `stop` ends the watch. */
export function watchLoss(c: Stream, to: number): { readonly lost: Promise<never>; readonly happened: () => boolean; readonly stop: () => void } {
  let happened = false;
  let stop = (): void => undefined;
  const lost = new Promise<never>((_, reject) => {
    const off = c.onLoss((l) => {
      happened = true;
      off();
      reject(new Error(lossText(to, l)));
    });
    stop = (): void => { off(); };
  });
  lost.catch(() => undefined);
  return { lost, happened: () => happened, stop };
}
