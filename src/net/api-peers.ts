/**
 * The session management participants an end point's discovery found (Annex 2 §3.3), and the
 * `discover()` calls waiting for them (api.ts).
 */
import type { DiscoveryEvent } from '../session/discovery-types.ts';
import type { Peer } from './api-types.ts';

export class PeerBook {
  readonly #peers = new Map<number, Peer>();
  readonly #nodeWaiters = new Map<number, ((p: Peer[]) => void)[]>();
  #doneWaiters: ((p: Peer[]) => void)[] = [];

  has(node: number): boolean {
    return this.#peers.has(node);
  }

  list(): Peer[] {
    return [...this.#peers.values()].sort((a, b) => a.node - b.node);
  }

  /** Resolves with `[peer]` when discovery reports the node, `[]` when it does not participate or answer. */
  waitNode(node: number): Promise<Peer[]> {
    return new Promise<Peer[]>((resolve) => {
      const list = this.#nodeWaiters.get(node) ?? [];
      list.push(resolve);
      this.#nodeWaiters.set(node, list);
    });
  }

  /** Resolves with every participant when discovery reports `done`. */
  waitDone(): Promise<Peer[]> {
    return new Promise<Peer[]>((resolve) => this.#doneWaiters.push(resolve));
  }

  discovery(d: DiscoveryEvent): void {
    if (d.event === 'participant') {
      const peer: Peer = { node: d.node, contact: d.contact, source: d.source, complete: d.complete, suspect: d.suspect };
      this.#peers.set(d.node, peer);
      this.#resolveNode(d.node, [peer]);
    } else if (d.event === 'not-participating' || d.event === 'unreachable') {
      this.#peers.delete(d.node);
      this.#resolveNode(d.node, []);
    } else if (d.event === 'done') {
      this.#resolveDone();
    }
  }

  /** §3.7.1, §3.7.3, §3.8.5: the session engine judged a peer suspect; it stays so until discovery finds it again. */
  suspect(node: number): void {
    const p = this.#peers.get(node);
    if (p !== undefined && !p.suspect) this.#peers.set(node, { ...p, suspect: true });
  }

  /** The end point stopped: every waiting call resolves with what is known (a node: nothing). */
  release(): void {
    this.#resolveDone();
    for (const [, w] of this.#nodeWaiters) for (const f of w) f([]);
    this.#nodeWaiters.clear();
  }

  #resolveDone(): void {
    const w = this.#doneWaiters;
    this.#doneWaiters = [];
    const peers = this.list();
    for (const f of w) f(peers);
  }

  #resolveNode(node: number, peers: Peer[]): void {
    const w = this.#nodeWaiters.get(node);
    this.#nodeWaiters.delete(node);
    for (const f of w ?? []) f(peers);
  }
}
