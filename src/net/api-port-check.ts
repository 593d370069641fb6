/**
 * The port check (decision FF4): a peer whose process was killed is found in about a second, a
 * peer that is merely stopped is waited for. The switch knows at once that a port's link went
 * down; its Port n Error and Status CSR says so (Part 6 §7.6.10: Port OK, or Port Uninitialized).
 *
 * Every half `api.peerCheckMs`, each node this end point has open streams with and from which
 * nothing was heard for a whole `peerCheckMs` is checked, one check per node in flight and at most
 * one per node and period:
 *
 * 1. once per switch: hop_count 0 reads (Part 3 §2.5 "the access is for that switch") of the PE
 *    Features CAR (Switch, bit 3; standard route table configuration, Part 3 Table 3-3 bit 23;
 *    extended features, bit 28), the Switch Port Information CAR (PortTotal, Part 1 Table 5-8)
 *    and the extended features list for an LP-Serial block (Part 6 §7.5, Register Map I or II);
 * 2. once per node (cached while its streams stay open; a port does not change while its link is
 *    up): the route, by the standard route configuration CSRs (Part 3 §3.5.5–§3.5.6): write the
 *    Destination ID Select CSR, read the Port Select CSR, read the select back; a select another
 *    host changed meanwhile (the CSR pair is shared) fails the lookup, which is tried again;
 * 3. the port's Error and Status CSR: Port OK ⇒ the peer's link is up (its process lives, maybe
 *    stopped): nothing; Port Uninitialized ⇒ its link is down: `peer-lost` to the session engine
 *    (its streams close at once, cause 'peer-lost', and it is suspect).
 *
 * Anything else (no switch, no block, no route, a read that fails or times out, neither bit)
 * decides nothing: the STATUS verification of api-liveness.ts (`api.verifyIdleMs`) stays the
 * fallback. A switch without what the check needs is asked again after `ABSENT_RETRY_PERIODS`.
 *
 * The requests name this end point's own ID as destinationID: a hop_count 0 request never leaves
 * the switch, and its response carries the destinationID asked as sourceID (Part 3 §2.5), which
 * must not count as hearing from the peer.
 */
import type { Time } from '../engine/contract.ts';
import { EF_ID, isLegalEfPointer } from '../registers/ef-chain.ts';
import { PORT_ERROR_STATUS_BLOCK_OFFSET, portLinkState } from '../registers/port-error-status.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';

export interface PortCheckHost {
  post(input: FabricEndpointInput): void;
  setTimer(name: string, at: Time | null): void;
  now(): Time;
  /** The nodes this end point has open streams with. */
  remotes(): ReadonlySet<number>;
  /** A word MAINTENANCE read with hop_count 0. */
  read(offset: number): Promise<number>;
  /** A word MAINTENANCE write with hop_count 0. */
  write(offset: number, value: number): Promise<void>;
  readonly tt: 0 | 1;
}

export const PORT_CHECK_TIMER = 'port-check';
/** Periods after which a switch found without the registers the check needs is asked again. */
export const ABSENT_RETRY_PERIODS = 30;
const MS = 1_000_000;
/** Extended features blocks looked at before giving up (the list is short; a loop ends it anyway). */
const MAX_BLOCKS = 32;

const OFFSETS = { assemblyInfo: 0x0c, peFeatures: 0x10, switchPortInfo: 0x14, routeSelect: 0x70, routePort: 0x74 } as const;
/** PE Features CAR (Part 1 Table 5-7, Part 3 Table 3-3): bit 3 Switch, bit 23 standard route table, bit 28 extended features. */
const PE = { switch: 0x10000000, standardRoute: 0x00000100, extendedFeatures: 0x00000008 } as const;
/** LP-Serial block IDs and their per-port stride (Part 6 §7.5.5 Table 7-4, §7.5.6 Table 7-5). */
const LP_SERIAL_STRIDE: ReadonlyMap<number, number> = new Map([
  [EF_ID.lpSerialEndpoint, 0x20], [EF_ID.lpSerialEndpointSwRecovery, 0x20], [EF_ID.lpSerialEndpointFree, 0x20], [EF_ID.lpSerialEndpointFreeSwRecovery, 0x20],
  [EF_ID.lpSerialEndpointII, 0x40], [EF_ID.lpSerialEndpointSwRecoveryII, 0x40], [EF_ID.lpSerialEndpointFreeII, 0x40], [EF_ID.lpSerialEndpointFreeSwRecoveryII, 0x40],
]);

interface SwitchInfo {
  readonly block: number;
  readonly stride: number;
  readonly ports: number;
}

/** What the last checks found (for tests and status). */
export interface PortCheckCounts {
  checks: number;
  ok: number;
  lost: number;
  failed: number;
}

export class PeerPortCheck {
  readonly #host: PortCheckHost;
  readonly #half: number | null;
  #heard = new Set<number>();
  #before = new Set<number>();
  #armed = false;
  #stopped = false;
  #tick = 0;
  readonly #lastCheck = new Map<number, number>();
  readonly #busy = new Set<number>();
  /** Port per node; null: the route leads to no port the switch has. */
  readonly #routes = new Map<number, number | null>();
  #switch: SwitchInfo | null | undefined;
  #absentUntil = 0;
  #finding: Promise<SwitchInfo | null> | null = null;
  /** Route lookups run one after another: the select CSR is one register. */
  #lookups: Promise<unknown> = Promise.resolve();
  readonly counts: PortCheckCounts = { checks: 0, ok: 0, lost: 0, failed: 0 };

  /** `periodMs` null: no port check. */
  constructor(host: PortCheckHost, periodMs: number | null) {
    this.#host = host;
    this.#half = periodMs === null ? null : (periodMs * MS) / 2;
  }

  /** A packet came from `node`. */
  heard(node: number): void {
    if (this.#half === null) return;
    this.#heard.add(node);
    if (!this.#armed && !this.#stopped) this.#arm();
  }

  /** A timer fell due; true when it was this one. */
  timer(name: string): boolean {
    if (name !== PORT_CHECK_TIMER) return false;
    this.#armed = false;
    if (this.#half === null || this.#stopped) return true;
    const remotes = this.#host.remotes();
    for (const node of [...this.#routes.keys()]) if (!remotes.has(node)) this.#routes.delete(node);
    for (const node of [...this.#lastCheck.keys()]) if (!remotes.has(node)) this.#lastCheck.delete(node);
    for (const node of remotes) {
      const silent = !this.#heard.has(node) && !this.#before.has(node);
      const last = this.#lastCheck.get(node);
      if (!silent || this.#busy.has(node) || (last !== undefined && this.#tick - last < 2)) continue;
      this.#lastCheck.set(node, this.#tick);
      void this.#check(node);
    }
    this.#before = this.#heard;
    this.#heard = new Set();
    this.#tick++;
    if (remotes.size > 0) this.#arm();
    return true;
  }

  /** Whether a check of `node` is in flight. */
  busy(node: number): boolean {
    return this.#busy.has(node);
  }

  stop(): void {
    this.#stopped = true;
    this.#host.setTimer(PORT_CHECK_TIMER, null);
    this.#armed = false;
  }

  #arm(): void {
    this.#armed = true;
    this.#host.setTimer(PORT_CHECK_TIMER, this.#host.now() + (this.#half ?? 0));
  }

  async #check(node: number): Promise<void> {
    this.#busy.add(node);
    this.counts.checks++;
    try {
      const sw = await this.#switchInfo();
      if (sw === null) return;
      let port = this.#routes.get(node);
      if (port === undefined) {
        port = await this.#route(node, sw);
        this.#routes.set(node, port);
      }
      if (port === null) return;
      const word = await this.#host.read(sw.block + PORT_ERROR_STATUS_BLOCK_OFFSET + sw.stride * port);
      const state = portLinkState(word);
      if (state === 'ok') this.counts.ok++;
      if (state !== 'uninitialized' || this.#stopped) return;
      this.counts.lost++;
      this.#routes.delete(node);
      if (this.#host.remotes().has(node)) this.#host.post({ kind: 'peer-lost', node, reason: `switch port ${port} uninitialized (Part 6 §7.6.10)` });
    } catch {
      // The STATUS verification (api-liveness.ts) decides; the route is looked up again next time.
      this.counts.failed++;
      this.#routes.delete(node);
    } finally {
      this.#busy.delete(node);
    }
  }

  async #switchInfo(): Promise<SwitchInfo | null> {
    if (this.#switch !== undefined && (this.#switch !== null || this.#host.now() < this.#absentUntil)) return this.#switch;
    this.#finding ??= this.#find().then(
      (info) => {
        this.#switch = info;
        if (info === null) this.#absentUntil = this.#host.now() + ABSENT_RETRY_PERIODS * 2 * (this.#half ?? 0);
        return info;
      },
      (e: unknown) => {
        this.#switch = undefined;
        throw e;
      },
    ).finally(() => {
      this.#finding = null;
    });
    return await this.#finding;
  }

  /** The switch's LP-Serial block, or null when the element is no switch with what the check needs. */
  async #find(): Promise<SwitchInfo | null> {
    const read = (o: number): Promise<number> => this.#host.read(o);
    const pe = await read(OFFSETS.peFeatures);
    if ((pe & PE.switch) === 0 || (pe & PE.standardRoute) === 0 || (pe & PE.extendedFeatures) === 0) return null;
    const ports = ((await read(OFFSETS.switchPortInfo)) >>> 8) & 0xff;
    let ptr = (await read(OFFSETS.assemblyInfo)) & 0xffff;
    const seen = new Set<number>();
    while (ptr !== 0 && isLegalEfPointer(ptr) && !seen.has(ptr) && seen.size < MAX_BLOCKS) {
      seen.add(ptr);
      const header = await read(ptr);
      const stride = LP_SERIAL_STRIDE.get(header & 0xffff);
      if (stride !== undefined) return { block: ptr, stride, ports };
      ptr = header >>> 16;
    }
    return null;
  }

  /** Part 3 §3.5.5–§3.5.6: the output port of `node`'s route, null when the switch has no such port. */
  #route(node: number, sw: SwitchInfo): Promise<number | null> {
    const run = async (): Promise<number | null> => {
      const mask = this.#host.tt === 1 ? 0xffff : 0xff;
      const select = node & mask;
      await this.#host.write(OFFSETS.routeSelect, select);
      const port = (await this.#host.read(OFFSETS.routePort)) & 0xff;
      const back = (await this.#host.read(OFFSETS.routeSelect)) & mask;
      if (back !== select) throw new Error(`route select changed meanwhile (0x${back.toString(16)}, not 0x${select.toString(16)})`);
      return port < sw.ports ? port : null;
    };
    const p = this.#lookups.then(run, run);
    this.#lookups = p.catch(() => undefined);
    return p;
  }
}
