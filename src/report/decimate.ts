/**
 * Keeps a long time series drawable: an SVG path with a point per simulated event would make a
 * report of many megabytes and take vega seconds to lay out, while the eye sees at most a few
 * hundred distinct x positions per chart.
 */

export type Point = readonly [x: number, y: number];

/**
 * Drops points whose x or y is not finite (vega would draw them as NaN coordinates, which the
 * browser reports as a console error), then, when more than `max` remain, splits them into
 * max/2 consecutive buckets and keeps each bucket's lowest and highest y in x order, so that
 * peaks, such as a buffer filling up for a moment, survive the reduction.
 */
export function decimate(points: readonly Point[], max: number): Point[] {
  if (!Number.isSafeInteger(max) || max < 2) throw new RangeError(`max: ${max} is not an integer >= 2`);
  const finite = points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
  if (finite.length <= max) return finite;
  const buckets = Math.floor(max / 2);
  const out: Point[] = [];
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * finite.length) / buckets);
    const end = Math.floor(((b + 1) * finite.length) / buckets);
    let lo = start;
    let hi = start;
    for (let i = start + 1; i < end; i++) {
      const y = (finite[i] as Point)[1];
      if (y < (finite[lo] as Point)[1]) lo = i;
      if (y > (finite[hi] as Point)[1]) hi = i;
    }
    out.push(finite[Math.min(lo, hi)] as Point);
    if (hi !== lo) out.push(finite[Math.max(lo, hi)] as Point);
  }
  return out;
}
