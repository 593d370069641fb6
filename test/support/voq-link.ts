import { VoqGenerator } from '../../src/voq/generator.ts';
import type { CarrierFields, VoqGeneratorInput, VoqGeneratorOutput, VoqMessage, VoqPortSettings } from '../../src/voq/generator-types.ts';
import { VoqReceiver } from '../../src/voq/receiver.ts';
import type { ReverseMap, VoqReceiverInput, VoqReceiverOutput } from '../../src/voq/receiver-types.ts';
import { attempt } from '../../src/wire/errors.ts';
import { decodeSymbol, encodeSymbol } from '../../src/wire/symbol.ts';
import { vcOfVcid } from '../../src/wire/symbol-parameters.ts';
import { Stype0, Stype1 } from '../../src/wire/symbol-types.ts';
import { voqLayout } from '../../src/wire/voq-stype2.ts';
import type { VoqFormat } from '../../src/wire/voq-stype2.ts';

/**
 * One link between a downstream device (a `VoqGenerator`, the originator of backpressure
 * messages, VoQ Backpressure §1.2) and the upstream device (a `VoqReceiver`, their recipient):
 * the generator's link `GEN_LINK` is wired to the receiver's local port `RX_PORT`. Every control
 * symbol the generator fills crosses the link as the six bytes of a CS48 (Part 6 Figure 3-2) and
 * is decoded again on the far side; a lost symbol is one whose bytes arrive with a CRC-13 error
 * (Part 6 §3.6.3), which the receiving link layer discards before the VoQ receiver sees it.
 *
 * The receiver routes destination ID d to downstream port d for every port of the generator's
 * device, so "port p" means the same egress port on both sides (§2.2 "That value is the same value
 * that has to be put in the downstream device's routing table").
 */
export const GEN_LINK = 0;
export const RX_PORT = 0;
export const HIGH = 4;

export interface VoqLinkConfig {
  readonly format?: VoqFormat;
  /** Part 12 TX Port Group Size of the generator's link and RX Port Group Size of the receiver's port. */
  readonly groupSize?: number;
  /** Ports of the downstream device (1–192 seed, 1–256 Part 12). */
  readonly ports: number;
  /** Table 5-3 bit 11 on both ends. */
  readonly linking?: boolean;
  /** VCs besides VC0 on the link (Part 6 Table 3-12). */
  readonly vcs?: 0 | 1 | 2 | 4 | 8;
  /** Staging queues per VC on the receiver (§2.4); forced on by `linking`. */
  readonly perVcStaging?: boolean;
  readonly queues?: number;
  readonly reverseMap?: ReverseMap;
  /** Settings of every egress port (the link's own `generation`/`vcLinking`/`txPortGroupSize` are set from the fields above). */
  readonly portSettings?: VoqPortSettings;
  readonly refreshPeriod?: number | null;
  readonly resendOnLinkRecovery?: boolean;
  readonly clearOnLinkUp?: boolean;
  /** Which symbols are lost, by their 0-based number on the link. */
  readonly lose?: (n: number, message: VoqMessage) => boolean;
}

export interface Transmitted {
  readonly packetId: number | string;
  readonly destID: number;
  readonly vc: number;
  readonly queue: number;
  readonly downstreamPort: number;
}

/** Carriers a link with VC linking off offers in turn (§4.2 b "any other valid combination of stype 0 and stype 1"). */
const UNLINKED_CARRIERS: readonly CarrierFields[] = [
  { stype0: Stype0.packetAccepted, parameter0: 5, parameter1: 7, stype1: Stype1.startOfPacket, cmd: 0 },
  { stype0: Stype0.status, parameter0: 3, parameter1: 62, stype1: Stype1.nop, cmd: 0 },
  { stype0: Stype0.vcStatus, parameter0: 2, parameter1: 10, stype1: Stype1.endOfPacket, cmd: 0 },
  { stype0: Stype0.packetRetry, parameter0: 9, parameter1: 1, stype1: Stype1.linkRequest, cmd: 4 },
  { stype0: Stype0.linkResponse, parameter0: 1, parameter1: 16, stype1: Stype1.nop, cmd: 0 },
];

export class VoqLink {
  readonly gen: VoqGenerator;
  readonly rx: VoqReceiver;
  readonly format: VoqFormat;
  readonly groupSize: number;
  readonly ports: number;
  readonly linking: boolean;
  readonly vcs: 0 | 1 | 2 | 4 | 8;
  /** Ports the link can name (Part 12 §3.1: "The combined size of the Port Group and Port Status Bits is 13 bits"). */
  readonly reach: number;
  /** Messages that crossed the link, in order. */
  readonly delivered: VoqMessage[] = [];
  /** Messages lost on the link. */
  readonly lost: VoqMessage[] = [];
  readonly transmitted: Transmitted[] = [];
  /** Receiver outputs other than `transmit`, for the tests' inspection. */
  readonly rxOutputs: VoqReceiverOutput[] = [];
  now = 0;
  #symbols = 0;
  #refreshAt: number | null = null;
  #carrier = 0;
  #lose: (n: number, message: VoqMessage) => boolean;

  constructor(c: VoqLinkConfig) {
    this.format = c.format ?? 'seed';
    this.groupSize = c.groupSize ?? 0;
    this.ports = c.ports;
    this.linking = c.linking ?? false;
    this.vcs = c.vcs ?? 0;
    this.#lose = c.lose ?? (() => false);
    const layout = voqLayout(this.format, this.groupSize);
    this.reach = Math.min(this.ports, layout.portsPerGroup * layout.groups);
    const base: VoqPortSettings = { generation: false, participation: true, ...c.portSettings };
    const portSettings = Array.from({ length: this.ports }, (_, p): VoqPortSettings => (p === GEN_LINK ? { ...base, generation: true, vcLinking: this.linking, txPortGroupSize: this.groupSize } : base));
    this.gen = new VoqGenerator({
      format: this.format,
      ports: this.ports,
      portSettings,
      detector: { kind: 'output-queue', high: HIGH, low: 1 },
      refreshPeriod: c.refreshPeriod ?? null,
      resendOnLinkRecovery: c.resendOnLinkRecovery ?? true,
      activeVcs: this.vcs,
    });
    const port = {
      queues: c.queues ?? 4,
      perVcStaging: this.linking || (c.perVcStaging ?? false),
      enableVcLinking: this.linking,
      ...(c.reverseMap === undefined ? {} : { reverseMap: c.reverseMap }),
      ...(this.format === 'seed' ? {} : { rxPortGroupSize: this.groupSize }),
    };
    this.rx = new VoqReceiver({
      format: this.format,
      ports: [port],
      routes: Array.from({ length: this.ports }, (_, d) => ({ destID: d, localPort: RX_PORT, downstreamPort: d })),
      vcs: this.vcs,
      clearOnLinkUp: c.clearOnLinkUp ?? true,
    });
  }

  /** VC0 and the VCs the links run (Part 6 Table 3-12), ascending. */
  vcList(): number[] {
    if (this.vcs === 0) return [0];
    const vcs = this.vcs;
    return [0, ...new Set(Array.from({ length: 8 }, (_, vcid) => vcOfVcid(vcid, vcs)))];
  }

  setLose(lose: (n: number, message: VoqMessage) => boolean): void {
    this.#lose = lose;
  }

  genInput(input: VoqGeneratorInput): VoqGeneratorOutput[] {
    const out = this.gen.handle(input, this.now);
    for (const o of out) if (o.kind === 'timer') this.#refreshAt = o.at;
    return out;
  }

  rxInput(input: VoqReceiverInput): VoqReceiverOutput[] {
    const out = this.rx.handle(input, this.now);
    for (const o of out) {
      if (o.kind === 'transmit') this.transmitted.push({ packetId: o.packetId, destID: o.destID, vc: o.vc, queue: o.queue, downstreamPort: o.downstreamPort });
      else this.rxOutputs.push(o);
    }
    return out;
  }

  /** Egress port `port`'s queue (of `vc`) reaches the high watermark. */
  congest(port: number, vc = 0): void {
    this.genInput({ kind: 'queue-depth', port, depth: HIGH, vc });
  }

  /** Egress port `port`'s queue (of `vc`) drains below the low watermark. */
  clear(port: number, vc = 0): void {
    this.genInput({ kind: 'queue-depth', port, depth: 0, vc });
  }

  /**
   * Sends up to `max` due symbols over the link (all of them by default); returns how many were
   * sent. A linked link offers the carrier the oldest due group needs: Status for VC0, VC_Status
   * with a VCID naming the VC otherwise (§3.2).
   */
  flush(max = Infinity): number {
    let sent = 0;
    for (let guard = 0; sent < max && this.gen.pending(GEN_LINK).length > 0; guard++) {
      if (guard > 10_000) throw new Error('the generator keeps groups due that no carrier takes');
      const head = this.gen.pending(GEN_LINK)[0];
      const carrier = this.linking ? this.#linkedCarrier(head?.vc ?? 0) : this.#unlinkedCarrier();
      const out = this.genInput({ kind: 'fill', port: GEN_LINK, symbol: carrier });
      const filled = out.find((o) => o.kind === 'stype2');
      if (filled?.kind !== 'stype2' || filled.message === null || filled.symbol === undefined) continue;
      this.#cross(filled.symbol, filled.message);
      sent++;
    }
    return sent;
  }

  /** Advances time to `to`, delivering a due refresh timer (§4.2 f). */
  advance(to: number): void {
    this.now = Math.max(this.now, to);
    if (this.#refreshAt !== null && this.#refreshAt <= this.now) {
      const at = this.#refreshAt;
      this.#refreshAt = null;
      for (const o of this.gen.handle({ kind: 'timer', name: 'refresh' }, at)) if (o.kind === 'timer') this.#refreshAt = o.at;
    }
  }

  /** The refresh timer's next expiry, if armed. */
  refreshAt(): number | null {
    return this.#refreshAt;
  }

  /** The link fails and recovers (Part 6 link recovery): both ends are told, the generator last (§4.2 g). */
  outage(): void {
    this.rxInput({ kind: 'link-down', port: RX_PORT });
    this.rxInput({ kind: 'link-up', port: RX_PORT });
    this.genInput({ kind: 'link-recovered', port: GEN_LINK });
  }

  stage(destID: number, packetId: number | string, vc = 0): void {
    this.rxInput({ kind: 'packet', destID, packetId, vc });
  }

  /** Offers the receiver's link one transmit opportunity; the packet sent, if any. */
  opportunity(): Transmitted | undefined {
    const before = this.transmitted.length;
    this.rxInput({ kind: 'transmit-opportunity', port: RX_PORT });
    return this.transmitted.length > before ? this.transmitted[this.transmitted.length - 1] : undefined;
  }

  /** Ports the generator reports congested (Table 5-4) among participating ports the link can name, for `vc` (null: the unlinked aggregate). */
  reported(vc: number | null): number[] {
    const ports: number[] = [];
    for (let p = 0; p < this.reach; p++) if (this.gen.settings(p)?.participation === true && this.gen.reportedStatus(GEN_LINK, p, vc) === 1) ports.push(p);
    return ports;
  }

  /** Ports the receiver holds congested in `vc`'s queues, among participating ports the link can name. */
  held(vc: number): number[] {
    return this.rx.congestedPorts(RX_PORT, vc).filter((p) => p < this.reach && this.gen.settings(p)?.participation === true);
  }

  /**
   * Where the two views differ, as "vc<v> port <p>: reported <r>, held <h>" lines (empty when they
   * agree). Without linking the unlinked aggregate is compared with every VC's queues (§3.2 "flow
   * control corresponding port queues in all VCs"); with it, VC by VC.
   */
  disagreements(): string[] {
    const lines: string[] = [];
    for (const vc of this.vcList()) {
      const reported = new Set(this.reported(this.linking ? vc : null));
      const held = new Set(this.held(vc));
      for (let p = 0; p < this.reach; p++) {
        if (reported.has(p) !== held.has(p)) lines.push(`vc${vc} port ${p}: reported ${reported.has(p) ? 1 : 0}, held ${held.has(p) ? 1 : 0}`);
      }
    }
    return lines;
  }

  #linkedCarrier(vc: number): CarrierFields {
    if (vc === 0) return { stype0: Stype0.status, parameter0: 0, parameter1: 62, stype1: Stype1.nop, cmd: 0 };
    const vcs = this.vcs === 0 ? 1 : this.vcs;
    const vcid = Array.from({ length: 8 }, (_, i) => i).find((i) => vcOfVcid(i, vcs) === vc) ?? 0;
    // Part 6 Table 3-11: CS48 parameter0 is "000, VCID".
    return { stype0: Stype0.vcStatus, parameter0: vcid, parameter1: 20, stype1: Stype1.nop, cmd: 0 };
  }

  #unlinkedCarrier(): CarrierFields {
    const c = UNLINKED_CARRIERS[this.#carrier % UNLINKED_CARRIERS.length] as CarrierFields;
    this.#carrier++;
    return c;
  }

  #cross(symbol: Parameters<typeof encodeSymbol>[0], message: VoqMessage): void {
    const n = this.#symbols++;
    const bytes = new Uint8Array(6);
    encodeSymbol(symbol, bytes, 0);
    if (this.#lose(n, message)) bytes[5] = (bytes[5] as number) ^ 0x01;
    const rxSize = this.format === 'seed' ? 0 : this.groupSize;
    const decoded = attempt(() => decodeSymbol(bytes, 0, 6, { link: 'cs48', voqFormat: this.format, part12GroupSize: rxSize }));
    if (!decoded.ok) {
      this.lost.push(message);
      return;
    }
    this.delivered.push(message);
    this.rxInput({ kind: 'symbol', port: RX_PORT, symbol: decoded.value });
  }
}
