import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { symbolForm } from '../fabric/link-rate.ts';
import type { LinkSpec } from '../fabric/types.ts';
import type { BuiltFabric } from '../scenario/build.ts';
import { transportSize } from '../scenario/build.ts';
import { formatTime } from '../scenario/units.ts';
import { LinkCapture } from './link-capture.ts';
import type { LinkEnd, SimCaptureFile } from './link-capture.ts';

/**
 * `riodp sim --pcap DIR` (docs/pcapng.md §3–§5, docs/simulator.md "Captures"): one capture file
 * per link of a built fabric, `<a>.p<port>-<b>.p<port>.pcapng` (a host link's end point first, a
 * fabric link's ends in the topology's order), each with the link's four interfaces. The taps only
 * observe: a run with captures gives the results of a run without.
 */

/** The default largest capture file: a careless run does not fill the disk. */
export const DEFAULT_PCAP_MAX_BYTES = 100_000_000;

/** Options of a run's captures (`RunOptions.pcap`). */
export interface SimCaptureOptions {
  /** The directory of the capture files, created if missing. */
  readonly dir: string;
  /** Largest file in bytes, headers included: past it a file records nothing more and counts what it left out. Default 100 MB. */
  readonly maxBytes?: number;
  /** Simulated time in ps after which nothing is recorded (records at `until` are). Default: the whole run. */
  readonly until?: number;
  /** The Section Header Block's `shb_userappl`. Default `riodp sim`. */
  readonly application?: string;
}

export type { SimCaptureFile } from './link-capture.ts';

/** The captures of a fabric being run. */
export interface FabricCapture {
  close(): SimCaptureFile[];
}

const SWITCH_DROPS = ['no route', 'port down', 'source rejected', 'hold overrun', 'maintenance unsupported', 'maintenance budget'] as const;
const ENDPOINT_DROPS = ['misrouted', 'no feature takes it'] as const;

function describe(spec: LinkSpec): (from: LinkEnd, to: LinkEnd) => string {
  const rate = `${spec.lanes}x ${spec.baud} Gbaud ${spec.encoding}, ${symbolForm(spec).toUpperCase()}, propagation ${formatTime(spec.propagation)}`;
  return (from, to) => `${from.element}.p${from.port} to ${to.element}.p${to.port}: ${rate}`;
}

/** Opens the capture files of `b`'s links in `o.dir` and puts the taps on its channels. */
export function captureFabric(b: BuiltFabric, o: SimCaptureOptions): FabricCapture {
  mkdirSync(o.dir, { recursive: true });
  const c = b.variant.config;
  const context = { tt: transportSize(c, b.variant.fabric), mtu: c.endpoints.mtu };
  const switchEnd = (s: number, port: number): LinkEnd => {
    const sw = b.switches[s];
    if (sw === undefined) throw new RangeError(`no switch ${s}`);
    return {
      element: sw.name, port,
      drops: {
        reasons: SWITCH_DROPS,
        read: () => {
          const n = sw.core.counters();
          return [n.noRoute, n.portDownDrops, n.sourceRejected, n.holdOverruns, n.maintenanceUnsupported, n.maintenanceDropped];
        },
      },
    };
  };
  const captures: LinkCapture[] = [];
  try {
    b.variant.fabric.links.forEach((l, i) => {
      const built = b.links[i];
      if (built === undefined) throw new RangeError(`link ${l.name} was not built`);
      let a: LinkEnd;
      if (l.kind === 'host') {
        const ep = b.endpoints[l.host];
        if (ep === undefined) throw new RangeError(`no end point ${l.host}`);
        a = { element: ep.name, port: 0, drops: { reasons: ENDPOINT_DROPS, read: () => { const n = ep.counters(); return [n.misrouted, n.otherPackets]; } } };
      } else {
        a = switchEnd(l.a.switch, l.a.port);
      }
      const z = switchEnd(l.b.switch, l.b.port);
      captures.push(new LinkCapture({
        path: join(o.dir, `${a.element}.p${a.port}-${z.element}.p${z.port}.pcapng`),
        application: o.application ?? 'riodp sim',
        comment: `riodp sim: variant ${b.variant.name}, seed ${c.seed}, link ${l.name}`,
        link: l.name,
        maxBytes: o.maxBytes ?? DEFAULT_PCAP_MAX_BYTES,
        ...(o.until === undefined ? {} : { until: o.until }),
        context,
      }, a, z, built.link.ab, built.link.ba, describe(built.spec)));
    });
  } catch (e) {
    for (const k of captures) k.close();
    throw e;
  }
  return { close: () => captures.map((k) => k.close()) };
}
