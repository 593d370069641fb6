import type { Time } from '../../engine/contract.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { VOQ_LAYOUT } from '../../registers/voq-block.ts';
import { generatorConfigFromRegisters, portControlInput } from '../../voq/generator-config.ts';
import type { VoqGeneratorEventName, VoqGeneratorInput, VoqGeneratorOutput, VoqGeneratorSnapshot } from '../../voq/generator-types.ts';
import { VoqGenerator } from '../../voq/generator.ts';
import { Stype0, Stype1 } from '../../wire/symbol-types.ts';
import type { ResolvedVoq } from './config.ts';
import type { SwitchSymbol } from './types.ts';

/**
 * VoQ backpressure generation of a switch, the downstream role (VoQ Backpressure §2.5 "If the
 * downstream (originating) device is using queues in its output stage to determine congestion,
 * then congestion messages will have to be sent to all ports that might be sources of incoming
 * traffic"): an output-queue detector over every output buffer, messages on the links whose Port
 * n VoQ Control CSR enables generation (§4.2 a "only ports enabled for this feature shall actually
 * transmit the symbol"). The generator reads its port settings from the switch's VoQ block, and a
 * MAINTENANCE write to that block reaches it as a 'port-control' input.
 *
 * A message leaves at the next pull of its link, with the status current then (§4.2 e): on CS48
 * links in the stype2 field of a Status control symbol (§4.2 b: "may be included with any other
 * valid combination of stype 0 and stype 1 symbols if VC linking is not enabled"; the carrier says
 * ackID_status 0 and buf_status 62, "at least 62" buffers, since a TCP link has neither ackIDs nor
 * a receive buffer to report), on CS64 links as its own symbol (Part 12 §3.2).
 *
 * Received VoQ symbols are the staging's (voq-staging.ts): honoured by a 'cioq-voq-backpressure'
 * switch, counted by the others (§4.1 c "Devices may support only the generation of backpressure
 * messages without the ability to honor messages").
 */

export interface VoqHost {
  /** A message became due on `port`. */
  wanted(port: number): void;
  /** The generator's refresh timer: `at` null cancels. */
  timer(at: number | null): void;
  event(name: VoqGeneratorEventName, port: number | undefined, detail: string | undefined): void;
  /** The switch's time now (a MAINTENANCE write to the VoQ block comes without one). */
  now(): Time;
}

const STATUS_CARRIER = { stype0: Stype0.status, parameter0: 0, parameter1: 62, stype1: Stype1.nop, cmd: 0 } as const;

export class SwitchVoq {
  readonly generator: VoqGenerator;
  readonly #cfg: ResolvedVoq;
  readonly #base: number;
  readonly #ports: number;
  readonly #depth: Int32Array;
  readonly #host: VoqHost;

  constructor(space: RegisterSpace, blockBase: number, cfg: ResolvedVoq, ports: number, host: VoqHost) {
    this.#host = host;
    this.#cfg = cfg;
    this.#base = blockBase;
    this.#ports = ports;
    this.generator = new VoqGenerator(generatorConfigFromRegisters(
      space,
      { detector: { kind: 'output-queue', high: cfg.high, low: cfg.low }, refreshPeriod: cfg.refreshPeriod, symbol: cfg.symbol },
      { format: cfg.format, blockBase },
    ));
    this.#depth = new Int32Array(ports).fill(-1);
    // A MAINTENANCE write to a Port n VoQ Control CSR reaches the generator (VoQ Table 5-3).
    space.subscribe((ch) => { this.registerChanged(space, ch.offset, host.now()); });
  }

  /** Output `o`'s buffer holds `depth` packets. */
  depth(o: number, depth: number, now: Time): void {
    if (this.#depth[o] === depth) return;
    this.#depth[o] = depth;
    this.#run({ kind: 'queue-depth', port: o, depth }, now);
  }

  /** §4.2 g "may be generated after link recovery to avoid orphaned congestion states". */
  linkUp(port: number, now: Time): void {
    this.#run({ kind: 'link-recovered', port }, now);
  }

  timer(now: Time): void {
    this.#run({ kind: 'timer', name: 'refresh' }, now);
  }

  /** A register of the switch changed; a Port n VoQ Control CSR reaches the generator. */
  registerChanged(space: RegisterSpace, offset: number, now: Time): void {
    const rel = offset - this.#base - VOQ_LAYOUT[this.#cfg.format].first;
    const port = rel / 4;
    if (rel < 0 || !Number.isInteger(port) || port >= this.#ports) return;
    this.#run(portControlInput(space, port, { format: this.#cfg.format, blockBase: this.#base }), now);
  }

  /** Whether a message waits for `port`'s link. */
  hasPending(port: number): boolean {
    return this.generator.pending(port).length > 0;
  }

  /** The next VoQ symbol for `port`'s link, or null when no message is worth sending. */
  next(port: number, now: Time): SwitchSymbol | null {
    // Each attempt takes at least one due group or finds none the carrier can take.
    for (let n = this.generator.pending(port).length; n > 0; n--) {
      const input: VoqGeneratorInput = this.#cfg.symbol === 'cs64' ? { kind: 'next-cs64', port } : { kind: 'fill', port, symbol: STATUS_CARRIER };
      for (const o of this.#run(input, now)) {
        if (o.kind === 'cs64' && o.symbol !== null) return { form: 'cs64', symbol: o.symbol };
        if (o.kind === 'stype2' && o.message !== null && o.symbol !== undefined) return { form: 'cs48', stype2: o.stype2, symbol: o.symbol };
      }
    }
    return null;
  }

  snapshot(): VoqGeneratorSnapshot {
    return this.generator.snapshot();
  }

  /** Runs one input and hands the host what is not an answer to a symbol request. */
  #run(input: VoqGeneratorInput, now: Time): VoqGeneratorOutput[] {
    const host = this.#host;
    const outs = this.generator.handle(input, now);
    for (const o of outs) {
      if (o.kind === 'symbol-wanted') host.wanted(o.port);
      else if (o.kind === 'timer') host.timer(o.at);
      else if (o.kind === 'event') host.event(o.name, o.port, o.detail);
    }
    return outs;
  }
}
