import { attempt } from '../../wire/errors.ts';
import { FRAME_HEADER_BYTES, FRAME_KIND } from '../../wire/frame.ts';
import { toHex } from '../../wire/hex.ts';
import type { PcapngFile, PcapngPacketRead } from '../../wire/pcapng/decode.ts';
import { CAPTURE_KIND, captureRecordBody } from '../../wire/pcapng/record.ts';
import { interfaceNames, readCaptureFile, riodpInterfaces } from '../capture-file.ts';
import { FileError } from '../stream-io.ts';
import { UsageError } from '../stream-options.ts';
import type { EngineName } from './names.ts';

/**
 * `riodp model <engine> --pcap FILE` (docs/model.md "Captures"): the records of a riodp capture
 * (docs/pcapng.md) as the engine's input lines, each the line a testbench would have written for
 * it, with the record's body as hex (docs/model.md "Packets", "Control symbols"), so that the run
 * is the run of those JSON Lines. Time is the record's timestamp minus the first chosen record's:
 * wall-clock nanoseconds since 1970 are no safe integers, so the header carries the epoch as a
 * string.
 */

/** A record as an engine's mapping sees it: its kind, its body, and where it was captured. */
interface RecordView {
  readonly kind: number;
  readonly body: Uint8Array;
  /** The port of the interface's name `<element>.p<port>.<tx|rx>` (docs/pcapng.md §3). */
  readonly port: number | undefined;
  /** What the element transmitted (epb_flags outbound, else a `.tx` interface) rather than received. */
  readonly transmitted: boolean;
}

/** A record read: an input line without `t`, a reason it is passed over, or why it does not decode. */
type Reading =
  | { readonly line: Readonly<Record<string, unknown>> }
  | { readonly passedOver: string }
  | { readonly error: string };

interface CaptureMapping {
  read(r: RecordView): Reading;
  /** The engine's inputs name a port: every interface that carries inputs must name one. */
  readonly needsPort: boolean;
}

const PACKET_KINDS: ReadonlySet<number> = new Set([FRAME_KIND.packet, CAPTURE_KIND.packetCs24]);

const RECORD_NAMES: ReadonlyMap<number, string> = new Map([
  [FRAME_KIND.packet, 'PACKET'], [CAPTURE_KIND.packetCs24, 'PACKET-CS24'], [FRAME_KIND.cs48, 'CS48'], [FRAME_KIND.cs64, 'CS64'],
  [CAPTURE_KIND.cs24, 'CS24'], [FRAME_KIND.hello, 'HELLO'], [FRAME_KIND.close, 'CLOSE'],
]);

function recordName(kind: number): string {
  return RECORD_NAMES.get(kind) ?? `kind 0x${kind.toString(16).padStart(2, '0')}`;
}

/**
 * Packet records of `ftype` (any when undefined) as the input `kind` names; other records passed
 * over. The ftype is the low nibble of the packet's second byte (Part 6 §2.3 Figure 2-2); a body
 * too short to hold it goes to the engine, whose decoding reports it. The body is given as the hex
 * of a 6-bit-ackID packet: a PACKET-CS24's ackID is its 5 bits and the 0 after them (§2.2), and
 * the engines read no ackID.
 */
function packets(ftype: number | undefined, kind: (r: RecordView) => string): CaptureMapping {
  return {
    needsPort: false,
    read(r) {
      if (!PACKET_KINDS.has(r.kind)) return { passedOver: recordName(r.kind) };
      const f = r.body.length >= 2 ? (r.body[1] as number) & 0xf : undefined;
      if (ftype !== undefined && f !== undefined && f !== ftype) return { passedOver: `Type ${f} packet` };
      return { line: { kind: kind(r), packet: toHex(r.body) } };
    },
  };
}

/** The symbol records: bytes by kind (DECISIONS §2; Part 6 §6.5.2) and the `voq-rx` input each feeds. */
const SYMBOLS: ReadonlyMap<number, { readonly bytes: number; readonly input: string }> = new Map([
  [FRAME_KIND.cs48, { bytes: 6, input: 'symbol' }],
  [CAPTURE_KIND.cs24, { bytes: 3, input: 'symbol' }],
  [FRAME_KIND.cs64, { bytes: 8, input: 'cs64' }],
]);

const symbols: CaptureMapping = {
  needsPort: true,
  read(r) {
    const s = SYMBOLS.get(r.kind);
    if (s === undefined) return { passedOver: recordName(r.kind) };
    // A CS48 record of 3 bytes would read as a CS24: the record's kind says what the body is.
    if (r.body.length !== s.bytes) return { error: `a ${recordName(r.kind)} record holds ${s.bytes} bytes, ${r.body.length} given (riodp capture §2)` };
    return { line: { kind: s.input, port: r.port, symbol: toHex(r.body) } };
  },
};

const TYPE7 = 7;
const TYPE9 = 9;

/** What each engine takes from a capture: a mapping, or why it takes nothing (docs/model.md "Captures"). */
const MAPPINGS: Readonly<Record<EngineName, CaptureMapping | string>> = {
  'ccp-endpoint': packets(TYPE7, () => 'ccp'),
  'arb-tx': packets(TYPE7, () => 'ccp'),
  'arb-rx': packets(TYPE7, () => 'ccp'),
  // A buffer between a link's receiver and a link's transmitter: in when received, out when sent.
  'congestion-point': packets(undefined, (r) => (r.transmitted ? 'dequeue' : 'enqueue')),
  reassembler: packets(TYPE9, () => 'packet'),
  'tm-ingress': packets(TYPE9, () => 'tm'),
  'tm-egress': packets(TYPE9, () => 'tm'),
  'voq-rx': symbols,
  segmenter: 'segmenter takes PDUs to send and pulls, not received packets or symbols',
  'voq-gen': 'voq-gen takes queue depths, port settings and transmit opportunities, not received packets or symbols (the stype2 it fills is its output)',
  smp: 'smp takes session management messages and reassembled PDUs, not link records (riodp decode --pcap --smp shows the messages a capture holds)',
};

/** Why `--pcap` cannot feed the engine, or undefined when it can. */
export function pcapRefusal(engine: EngineName): string | undefined {
  const m = MAPPINGS[engine];
  return typeof m === 'string' ? `--pcap: ${m}` : undefined;
}

/** One record for the driver, numbered in the whole file as `riodp decode --pcap` numbers it. */
export type CaptureItem =
  | { readonly n: number; readonly line: Readonly<Record<string, unknown>> }
  | { readonly n: number; readonly error: string };

export interface CaptureInput {
  /** The header's `pcap` field: the file, the chosen interfaces, and time 0 as nanoseconds in the capture's clock. */
  readonly header: { readonly file: string; readonly interfaces: readonly string[]; readonly epochNs: string };
  /** The chosen interfaces' records in file order; those passed over are counted, not given. */
  items(): Generator<CaptureItem, void, undefined>;
  /** The stderr summary once `items` is done: records read as inputs, records passed over by kind. */
  summary(): string;
}

const PORT_NAME = /\.p(\d+)\.(?:tx|rx)$/;

function view(p: PcapngPacketRead, name: string): RecordView | { readonly error: string } {
  const d = p.data;
  const body = attempt(() => captureRecordBody(d, 0, d.length));
  if (!body.ok) return { error: body.error.message };
  const port = PORT_NAME.exec(name)?.[1];
  return {
    kind: body.value.kind,
    body: d.subarray(FRAME_HEADER_BYTES),
    port: port === undefined ? undefined : Number(port),
    transmitted: p.direction === undefined ? name.endsWith('.tx') : p.direction === 'outbound',
  };
}

function read(m: CaptureMapping, p: PcapngPacketRead, name: string): Reading {
  const v = view(p, name);
  return 'error' in v ? v : m.read(v);
}

/**
 * Reads `path` and chooses its interfaces: those `names` gives, or the only one whose records give
 * the engine inputs. Throws UsageError (an engine `--pcap` cannot feed, an unknown interface,
 * several interfaces to choose from, an interface without the port an input needs) and FileError
 * (the file cannot be read, is not pcapng, holds no riodp interface).
 */
export async function openCapture(engine: EngineName, path: string, names: readonly string[] | undefined): Promise<CaptureInput> {
  const m = MAPPINGS[engine];
  if (typeof m === 'string') throw new UsageError(`--pcap: ${m}`);
  const capture = await readCaptureFile(path);
  const ours = riodpInterfaces(capture);
  if (ours.length === 0) throw new FileError(`${path}: no interface of link type USER0 (147), so no riodp records`);
  const nameOf = (k: number): string => capture.interfaces[k]?.name ?? `#${k}`;
  const carries = new Set<number>();
  for (const p of capture.packets) {
    if (!carries.has(p.interface) && ours.includes(p.interface) && !('passedOver' in read(m, p, nameOf(p.interface)))) carries.add(p.interface);
  }
  const carrying = ours.filter((k) => carries.has(k));
  const chosen = choose(capture, ours, carrying, names, path, engine);
  const isChosen = new Set(chosen);
  if (m.needsPort) {
    const portless = chosen.filter((k) => carrying.includes(k) && !PORT_NAME.test(nameOf(k)));
    if (portless.length > 0) throw new UsageError(`--pcap: ${engine} inputs name a port, read from the interface name <element>.p<port>.<tx|rx> (docs/pcapng.md §3): ${interfaceNames(capture, portless)} names none`);
  }
  const epoch = capture.packets.find((p) => isChosen.has(p.interface))?.timestampNs ?? 0n;
  let inputs = 0;
  const passedOver = new Map<string, number>();
  return {
    header: { file: path, interfaces: chosen.map(nameOf), epochNs: epoch.toString() },
    *items() {
      let n = 0;
      for (const p of capture.packets) {
        n++;
        if (!isChosen.has(p.interface)) continue;
        const r = read(m, p, nameOf(p.interface));
        if ('passedOver' in r) {
          passedOver.set(r.passedOver, (passedOver.get(r.passedOver) ?? 0) + 1);
          continue;
        }
        inputs++;
        // Before the epoch or 2^53 ns (104 days) after it: the driver reports the time as it would a line's.
        yield 'error' in r ? { n, error: r.error } : { n, line: { t: Number(p.timestampNs - epoch), ...r.line } };
      }
    },
    summary() {
      const over = [...passedOver.values()].reduce((a, b) => a + b, 0);
      const kinds = [...passedOver].map(([k, c]) => `${k}: ${c}`).join(', ');
      return `summary: ${inputs} record${inputs === 1 ? '' : 's'} read as inputs, ${over} passed over${over === 0 ? '' : ` (${kinds})`}`;
    },
  };
}

function choose(capture: PcapngFile, ours: readonly number[], carrying: readonly number[], names: readonly string[] | undefined, path: string, engine: EngineName): number[] {
  if (names !== undefined) {
    return [...new Set(names)].map((name) => {
      const k = ours.find((i) => capture.interfaces[i]?.name === name);
      if (k === undefined) throw new UsageError(`--interface ${name}: ${path} has no riodp interface of that name (it has ${interfaceNames(capture, ours)})`);
      return k;
    });
  }
  // A switch's capture holds every port in both directions: which of them the engine stands for is the user's to say.
  if (carrying.length > 1) throw new UsageError(`${path} has inputs for ${engine} on ${interfaceNames(capture, carrying)}: choose with --interface (one name, or several: --interface A,B)`);
  return carrying.length === 1 ? [...carrying] : [...ours];
}
