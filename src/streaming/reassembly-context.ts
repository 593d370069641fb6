import type { Time } from '../engine/contract.ts';
import { flowIdForChannel, flowIdForPacket, packetChannel } from '../wire/flow-id.ts';
import type { FlowIdLabel, VcCount } from '../wire/flow-id.ts';
import { TT_NAMES } from '../wire/header.ts';
import type { SegmentIn } from './reassembler-segment.ts';
import { PDU_MAX } from './segment-pdu.ts';
import type { ContextKey, OpenContextInfo } from './reassembler-types.ts';
import type { BufferPool } from './reassembly-pool.ts';
import type { Vsid } from './vsid.ts';

/**
 * One open segmentation context (Part 10 §3.2.5 reassembly rules 1, 2) and the key that finds it.
 *
 * Buffer. Each PDU gets a buffer of its own, allocated when its start segment arrives and grown
 * geometrically (doubling, capped at 65536 bytes): every payload byte is copied in once when its
 * segment arrives, plus the amortised re-copy of doubling (at most the PDU's size again). The first
 * allocation is 4 × MTU unless the opener passes a larger capacity (the reassembler passes the
 * length of the PDU it delivered last, so a stream of equal PDUs is copied once, into one buffer:
 * docs/performance.md). The delivered PDU is a view of that buffer, which the context then drops:
 * the bytes stay valid for the receiver, and the packets' buffers are never retained. With
 * `bufferPool` the first buffer comes from buffers receivers recycled when one is large enough
 * (reassembly-pool.ts).
 */

/**
 * §3.2.5 rule 1 "the segmentation context consisting of the source ID, the destination ID, and the
 * physical channel ID. (The destination ID is only required for devices supporting multicast
 * and/or multiple destination IDs.)". The channel is the VC, prio and CRF bits, which select the
 * transaction request flow (§3.2.4: a PDU's segments all travel in one flow). tt is part of the key:
 * a Dev8 and a Dev16 source with the same number are different devices.
 */
export function contextKey(p: SegmentHeader, withDestination: boolean): ContextKey {
  const tt = TT_NAMES[p.tt] ?? `tt${p.tt}`;
  const dst = withDestination ? `/dst${p.destinationID}` : '';
  return `${tt}/src${p.sourceID}${dst}/vc${p.vc}/prio${p.prio}/crf${p.crf}`;
}

/** The fields of a data segment (a decoded packet, or a `SegmentIn`) its context key and flow are made of. */
export interface SegmentHeader {
  readonly sourceID: number;
  readonly destinationID: number;
  readonly tt: number;
  readonly vc: number;
  readonly prio: number;
  readonly crf: number;
}

export interface PacketFlow {
  readonly channel: number;
  readonly flowID: FlowIdLabel | null;
}

/**
 * The flow a data segment travels in. Multiple VC mode: "Flow nA and higher for VCn" (Part 9
 * Table 3-1) for VC1–VC8 (Part 6 Table 2-2); VC0 by prio/CRF as a request (Part 6 Tables 6-6/6-7:
 * data streaming transactions "do not receive responses", §3.2.1). A VC0 request at prio 3 is
 * "Illegal" (Part 9 Table 2-1): null.
 */
export function packetFlow(p: SegmentHeader, vcCount: VcCount, crfSupported: boolean): PacketFlow {
  const channel = packetChannel(p.vc, p.prio, p.crf, vcCount);
  if (channel !== 0) return { channel, flowID: flowIdForChannel(channel) ?? null };
  return { channel, flowID: flowIdForPacket({ prio: p.prio, crf: p.crf, response: false, crfSupported })?.flowID ?? null };
}

/** Bytes the first allocation of a PDU buffer holds, in MTUs. */
const INITIAL_MTUS = 4;

export class ReassemblyContext {
  readonly key: ContextKey;
  readonly vsid: Vsid;
  readonly tt: number;
  /** The start segment's VC, prio and CRF: with tt and the IDs, what its key was built from. */
  readonly vc: number;
  readonly prio: number;
  readonly crf: number;
  readonly flow: PacketFlow;
  /** The MTU when the start segment came: the PDU is judged with it to its end. */
  readonly mtu: number;
  readonly openedAt: Time;
  lastSegmentAt: Time;
  segments = 1;
  #count = 0;
  /** null once the PDU is known defective (`discarding`). */
  #buffer: Uint8Array | null;

  /**
   * Opens the context on a start segment; `assembling` copies its payload in (rule 2). `capacity`:
   * bytes of the first allocation, at least 4 × MTU, at most 65536. `pool`: where a buffer is
   * taken from before one is allocated (`bufferPool`), null when recycling is off.
   */
  constructor(key: ContextKey, p: SegmentIn, flow: PacketFlow, mtu: number, now: Time, assembling: boolean, capacity = 0, pool: BufferPool | null = null) {
    this.key = key;
    this.vsid = { sourceID: p.sourceID, destinationID: p.destinationID, cos: p.cos, streamID: p.streamID };
    this.tt = p.tt;
    this.vc = p.vc;
    this.prio = p.prio;
    this.crf = p.crf;
    this.flow = flow;
    this.mtu = mtu;
    this.openedAt = now;
    this.lastSegmentAt = now;
    this.#buffer = assembling ? firstBuffer(Math.min(PDU_MAX, Math.max(INITIAL_MTUS * mtu, capacity)), pool) : null;
    this.append(p);
  }

  /**
   * Whether `p` has this context's key (contextKey(p) === key), compared field by field: a few
   * loads, where building the key string and hashing it was the largest cost of a segment
   * (docs/performance.md). Equal fields give equal keys; any difference (including a field of
   * another type, as JSON input may carry) answers false and the caller builds the key.
   */
  matches(p: SegmentHeader, withDestination: boolean): boolean {
    return p.sourceID === this.vsid.sourceID && p.tt === this.tt && p.vc === this.vc && p.prio === this.prio && p.crf === this.crf
      && (!withDestination || p.destinationID === this.vsid.destinationID);
  }

  get assembling(): boolean {
    return this.#buffer !== null;
  }

  /** Rule 2 "The amount of data transferred is counted for comparison to the length field". */
  get received(): number {
    return this.#count;
  }

  /** Drops the data: the PDU has been reported defective and waits for its end. */
  discard(): void {
    this.#buffer = null;
  }

  /**
   * Rule 2 "transfers the entire payload into the reassembly buffer in order". Past 65536 bytes, or
   * once the PDU is defective, the data is only counted: no length field describes a longer PDU,
   * so rule 7 will find it defective.
   */
  append(seg: SegmentIn): void {
    const at = this.#count;
    this.#count = at + seg.length;
    let buf = this.#buffer;
    if (buf === null || this.#count > PDU_MAX) return;
    if (this.#count > buf.length) {
      let size = buf.length * 2;
      while (size < this.#count) size *= 2;
      const grown = new Uint8Array(Math.min(PDU_MAX, size));
      grown.set(buf.subarray(0, at));
      buf = grown;
      this.#buffer = grown;
    }
    seg.copyTo(buf, at);
  }

  /** The reassembled bytes; valid until the next `append`, and for good once the context is closed. */
  bytes(): Uint8Array {
    return (this.#buffer ?? new Uint8Array(0)).subarray(0, this.#count);
  }

  /**
   * The reassembled bytes to deliver, once the context is closed: the buffer itself when the PDU
   * filled it, else a view of it, unless a capacity passed to the constructor left it more than
   * twice the PDU (and over 4 × MTU), when the PDU is copied out so that a receiver keeping it
   * keeps no more memory than doubling growth would have allocated for it.
   */
  delivered(): Uint8Array {
    const buf = this.#buffer;
    const n = this.#count;
    if (buf === null) return new Uint8Array(0);
    if (n === buf.length) return buf;
    if (buf.length > 2 * n && buf.length > INITIAL_MTUS * this.mtu) return buf.slice(0, n);
    return buf.subarray(0, n);
  }

  /**
   * The buffer, once the context is closed and `delivered()` handed out a copy instead of a view
   * of it: the receiver holds nothing of it, so it may be reused. null otherwise (a discarded PDU
   * has already let its buffer go).
   */
  unshared(delivered: Uint8Array): ArrayBuffer | null {
    const buf = this.#buffer;
    return buf === null || delivered.buffer === buf.buffer ? null : (buf.buffer as ArrayBuffer);
  }

  info(): OpenContextInfo {
    return {
      context: this.key,
      state: this.assembling ? 'assembling' : 'discarding',
      vsid: this.vsid,
      tt: this.tt,
      flowID: this.flow.flowID,
      channel: this.flow.channel,
      mtu: this.mtu,
      received: this.#count,
      segments: this.segments,
      openedAt: this.openedAt,
      lastSegmentAt: this.lastSegmentAt,
    };
  }
}

/** A PDU's first buffer: `size` bytes, from the pool when it holds one that large (its whole length is used, it is the PDU's own). */
function firstBuffer(size: number, pool: BufferPool | null): Uint8Array {
  const spare = pool === null ? null : pool.take(size);
  return spare === null ? new Uint8Array(size) : new Uint8Array(spare);
}
