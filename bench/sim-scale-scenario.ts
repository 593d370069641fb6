/**
 * The leaf-spine of issue 20 as a scenario, at any size: `leaves` leaves of `hostsPerLeaf` hosts,
 * `hostsPerLeaf` spines (non-blocking: as many uplinks as hosts on each leaf), 10 Gbit/s links
 * (4x 3.125 Gbaud 8b/10b, the schema's default), 256-byte PDUs, Bernoulli load 0.4, each host
 * sending uniformly over 32 destinations of its own.
 *
 * The scenario language has no pattern "each source over k destinations of its own": `uniform`
 * with `destinations` gives every source the same list. So the generator writes one traffic entry
 * per host (`sources: [s]`, its own 32 `destinations`), all in one group. Host s sends to
 * s + 1 + j·⌊N/32⌋ (mod N), j = 0 … 31: 32 distinct hosts, never itself, spread over the leaves.
 *
 *   node --import tsx bench/sim-scale-scenario.ts 1024 [duration] > leaf-spine-1024.yaml
 *   riodp sim leaf-spine-1024.yaml --no-reproduce
 */

export const SCALE_DESTINATIONS = 32;

/** Leaves × hosts per leaf for `hosts` end points: k × k for a square, else twice as many leaves as hosts per leaf. */
export function leafSpineShape(hosts: number): { leaves: number; hostsPerLeaf: number } {
  const k = Math.round(Math.sqrt(hosts));
  if (k * k === hosts) return { leaves: k, hostsPerLeaf: k };
  const h = Math.round(Math.sqrt(hosts / 2));
  if (2 * h * h === hosts) return { leaves: 2 * h, hostsPerLeaf: h };
  throw new RangeError(`${hosts} end points: expected k² or 2k²`);
}

export interface ScaleScenarioOptions {
  /** Simulated time, e.g. "20us", "10ms". */
  readonly duration: string;
  /** Measured window starts here; default none. */
  readonly warmup?: string;
  /** `output` lines to add (e.g. "flows: summary"), if any. */
  readonly output?: Readonly<Record<string, string>>;
}

/** The scenario's YAML text for `hosts` end points. */
export function leafSpineScenario(hosts: number, o: ScaleScenarioOptions): string {
  const { leaves, hostsPerLeaf } = leafSpineShape(hosts);
  const stride = Math.max(1, Math.floor(hosts / SCALE_DESTINATIONS));
  const lines = [
    `name: leaf-spine ${hosts}`,
    `description: ${leaves} leaves x ${hostsPerLeaf} hosts, ${hostsPerLeaf} spines, 10 Gbit/s links, 256 B PDUs at load 0.4, each host over ${SCALE_DESTINATIONS} destinations (issue 20).`,
    'seed: 1',
    `duration: ${o.duration}`,
    ...(o.warmup === undefined ? [] : [`warmup: ${o.warmup}`]),
    `topology: { kind: leaf-spine, leaves: ${leaves}, spines: ${hostsPerLeaf}, hostsPerLeaf: ${hostsPerLeaf} }`,
    'link: { lanes: 4, baud: 3.125, encoding: 8b10b }',
    ...(o.output === undefined ? [] : [`output: { ${Object.entries(o.output).map(([k, v]) => `${k}: ${v}`).join(', ')} }`]),
    'traffic:',
  ];
  for (let s = 0; s < hosts; s++) {
    const dsts = new Set<number>();
    for (let j = 0; dsts.size < Math.min(SCALE_DESTINATIONS, hosts - 1); j++) {
      const d = (s + 1 + j * stride) % hosts;
      if (d !== s) dsts.add(d);
    }
    lines.push(`  - { group: uniform32, pattern: uniform, load: 0.4, sizes: 256B, sources: [${s}], destinations: [${[...dsts].join(', ')}] }`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const hosts = Number(process.argv[2] ?? 1024);
  process.stdout.write(leafSpineScenario(hosts, { duration: process.argv[3] ?? '1ms' }));
}
