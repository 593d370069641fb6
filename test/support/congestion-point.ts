import type { CongestionPoint } from '../../src/flow/congestion-point.ts';
import type { BufferedPacket, CongestionPointOutput } from '../../src/flow/congestion-point-types.ts';

/** `n` enqueues of the same packet at time 0, outputs concatenated. */
export function enq(e: CongestionPoint, p: BufferedPacket, n = 1): CongestionPointOutput[] {
  const out: CongestionPointOutput[] = [];
  for (let i = 0; i < n; i++) out.push(...e.handle({ kind: 'enqueue', packet: p }, 0));
  return out;
}

/** `n` dequeues of the same packet at time 0, outputs concatenated. */
export function deq(e: CongestionPoint, p: BufferedPacket, n = 1): CongestionPointOutput[] {
  const out: CongestionPointOutput[] = [];
  for (let i = 0; i < n; i++) out.push(...e.handle({ kind: 'dequeue', packet: p }, 0));
  return out;
}
