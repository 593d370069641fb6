/**
 * When an end point process tries its switch again (docs/fabric-api.md "Links"): after a failed
 * attempt, or after the link went down, it waits `firstMs`, then twice as long after each further
 * failure, at most `maxMs`; a link that opens starts the sequence again. The first connection of
 * `startEndpoint` is given `timeoutMs` in all.
 */
import type { RetrySettings } from './endpoint-config.ts';

export function nextRetryDelay(previousMs: number | null, r: Pick<RetrySettings, 'firstMs' | 'maxMs'>): number {
  return previousMs === null ? r.firstMs : Math.min(r.maxMs, previousMs * 2);
}
