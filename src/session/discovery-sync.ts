/**
 * A synchronous driver of `SessionDiscovery` (discovery.ts) for tests, simulators and a local
 * fabric model: every read is answered at once by a function, and time advances only to the next
 * poll, so a whole discovery runs in one call.
 */
import type { Counters, Time } from '../engine/contract.ts';
import { SessionDiscovery } from './discovery.ts';
import type {
  DiscoveryConfig, DiscoveryCounter, DiscoveryEvent, DiscoveryInput, DiscoveryOutput, DiscoveryTimerName, ReadOutput, ReadResultInput,
} from './discovery-types.ts';

/** One word of `node`'s configuration space; undefined when the read fails. */
export type ReadWord = (node: number, offset: number) => number | undefined;

type EventOf<E extends DiscoveryEvent['event']> = Extract<DiscoveryEvent, { readonly event: E }>;

export interface DiscoveryResult {
  readonly participants: readonly EventOf<'participant'>[];
  readonly notParticipating: readonly EventOf<'not-participating'>[];
  readonly unreachable: readonly EventOf<'unreachable'>[];
  readonly illegal: readonly EventOf<'illegal-block'>[];
  readonly chain: readonly EventOf<'ef-chain'>[];
  /** Every event, in order. */
  readonly events: readonly DiscoveryEvent[];
  readonly counters: Counters<DiscoveryCounter>;
  /** Time the discovery took in the config's unit: the poll periods waited (reads take none). */
  readonly elapsed: Time;
}

function answer(read: ReadWord, o: ReadOutput): ReadResultInput {
  try {
    const value = read(o.node, o.offset);
    return value === undefined ? { kind: 'read-result', tag: o.tag, error: 'no response' } : { kind: 'read-result', tag: o.tag, value };
  } catch (e) {
    return { kind: 'read-result', tag: o.tag, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Runs a `SessionDiscovery` to completion with `read` answering every read at once (tests,
 * simulators, a local fabric model): time advances only to the next poll. A throwing `read` is a
 * read error of that node.
 */
export function discoverWith(read: ReadWord, config: DiscoveryConfig = {}): DiscoveryResult {
  const engine = new SessionDiscovery(config);
  const timers = new Map<DiscoveryTimerName, Time>();
  const events: DiscoveryEvent[] = [];
  const fifo: DiscoveryOutput[] = [];
  let now = 0;
  const feed = (input: DiscoveryInput): void => { fifo.push(...engine.handle(input, now)); };
  feed({ kind: 'start' });
  for (;;) {
    const o = fifo.shift();
    if (o !== undefined) {
      if (o.kind === 'read') feed(answer(read, o));
      else if (o.kind === 'timer') {
        if (o.at === null) timers.delete(o.name);
        else timers.set(o.name, o.at);
      } else events.push(o.detail);
      continue;
    }
    let next: [DiscoveryTimerName, Time] | undefined;
    for (const t of timers) if (next === undefined || t[1] < next[1]) next = t;
    if (next === undefined) break;
    timers.delete(next[0]);
    now = Math.max(now, next[1]);
    feed({ kind: 'timer', name: next[0] });
  }
  const pick = <E extends DiscoveryEvent['event']>(e: E): EventOf<E>[] => events.filter((x): x is EventOf<E> => x.event === e);
  return {
    participants: pick('participant'),
    notParticipating: pick('not-participating'),
    unreachable: pick('unreachable'),
    illegal: pick('illegal-block'),
    chain: pick('ef-chain'),
    events,
    counters: engine.counters(),
    elapsed: now,
  };
}
