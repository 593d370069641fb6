/**
 * Virtual stream IDs and class-of-service IDs (Part 10 §2.5, §3.2.2, §3.3).
 *
 * "The VSID is a "key" comprised of multiple fields. These fields are the source/destination ID,
 * cos, and streamID. From the source's viewpoint: destination ID+cos+streamID represents a unique
 * stream. From the destination's viewpoint: source ID+cos+streamID represents a unique stream"
 * (§3.2.2). "Ingress queuing should be based on: destination ID+cos. Egress queuing should be
 * based on: source ID+cos" (§3.3).
 */
export interface Vsid {
  readonly sourceID: number;
  readonly destinationID: number;
  /** 8-bit class of service. */
  readonly cos: number;
  /** 16-bit stream ID. */
  readonly streamID: number;
}

/**
 * The bin of a cos value in a device with 2^bits bins: "The cos field shall be used beginning with
 * the MSB (bit 0) using the necessary number of bits for the number of classes supported" (§3.3);
 * "a device with two buffering structures (or "bins") maps a packet to a bin using bit 0" (§2.5).
 */
export function cosBin(cos: number, bits: number): number {
  if (!Number.isInteger(bits) || bits < 0 || bits > 8) throw new RangeError('cos bits must be an integer from 0 to 8');
  return bits === 0 ? 0 : (cos & 0xff) >>> (8 - bits);
}

/** Ingress queue key, "destination ID+cos" (§3.3), with the cos reduced to the device's bins. */
export function ingressCosId(v: Pick<Vsid, 'destinationID' | 'cos'>, bits = 8): string {
  return `${v.destinationID}/${cosBin(v.cos, bits)}`;
}

/** Egress queue key, "source ID+cos" (§3.3). */
export function egressCosId(v: Pick<Vsid, 'sourceID' | 'cos'>, bits = 8): string {
  return `${v.sourceID}/${cosBin(v.cos, bits)}`;
}

/** The stream as the source sees it: destination ID+cos+streamID (§3.2.2). */
export function sourceStreamKey(v: Pick<Vsid, 'destinationID' | 'cos' | 'streamID'>): string {
  return `${v.destinationID}/${v.cos}/${v.streamID}`;
}

/** The stream as the destination sees it: source ID+cos+streamID (§3.2.2). */
export function destinationStreamKey(v: Pick<Vsid, 'sourceID' | 'cos' | 'streamID'>): string {
  return `${v.sourceID}/${v.cos}/${v.streamID}`;
}
