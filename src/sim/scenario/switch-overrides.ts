import type { z } from 'zod';
import type { Issue } from '../../config/issues.ts';
import { DEFAULT_INPUT_PACKETS, DEFAULT_RESERVE_PER_PRIORITY } from '../../node/switch/config.ts';
import { checkSwitchSettings } from '../../node/switch/schema.ts';
import type { Fabric } from '../topology/types.ts';
import { linkPattern } from './link-match.ts';
import type { LinkOverride, RunConfig, SwitchSettings } from './schema.ts';
import type { PortOverride, SwitchOverride } from './schema-switches.ts';

/**
 * The settings each switch runs with (issue 20 "per-switch and per-port settings"). Merge order:
 * the `switch` block, then every `switches` entry whose key names the switch, in file order (a
 * field an entry gives replaces the field whole), then the ports' settings of those entries (a
 * later entry's field for a port wins). A switch no entry names runs the `switch` block as is.
 * A port's `link` applies over `link` and `linkOverrides` to the link attached to the port; the
 * two ends of a link between switches must not disagree.
 */

type Buffer = NonNullable<SwitchSettings['inputBuffer']>;
type Congestion = SwitchSettings['congestion'];
type OneCongestion = Exclude<Congestion, unknown[] | undefined>;

/** A switch's settings: the `switch` block's fields, with `inputBuffer` and `congestion` per port once a port has its own. */
export type ResolvedSwitchSettings = Omit<SwitchSettings, 'inputBuffer' | 'congestion'> & {
  readonly inputBuffer?: NonNullable<SwitchSettings['inputBuffer']> | readonly NonNullable<SwitchSettings['inputBuffer']>[];
  readonly congestion?: SwitchSettings['congestion'];
};

/** A port's link settings: the fields of `link` it changes. */
export type PortLink = Omit<LinkOverride, 'match'>;

/** The patterns of a `switches` key: a name, a pattern with `*`, or a comma-separated list of them. */
export function switchKeyPatterns(key: string): RegExp[] {
  return key.split(',').map((p) => linkPattern(p.trim()));
}

function names(key: string, name: string): boolean {
  return switchKeyPatterns(key).some((re) => re.test(name));
}

function entries(c: RunConfig): [string, SwitchOverride][] {
  return Object.entries(c.switches ?? {});
}

function perPort<T>(base: T | readonly T[] | undefined, ports: number, own: ReadonlyMap<number, T>, dflt: T): T[] {
  return Array.from({ length: ports }, (_, i) => {
    if (own.has(i)) return own.get(i) as T;
    const b = Array.isArray(base) ? (base as readonly T[])[i] : (base as T | undefined);
    return b ?? dflt;
  });
}

/** The settings switch `s` of `fabric` runs with, and whether a `switches` entry names it. */
export function resolveSwitch(c: RunConfig, fabric: Fabric, s: number): { settings: ResolvedSwitchSettings; named: boolean; links: ReadonlyMap<number, PortLink> } {
  const sw = fabric.switches[s];
  if (sw === undefined) throw new RangeError(`no switch ${s}`);
  const out: Record<string, unknown> = { ...c.switch };
  const ports = new Map<number, PortOverride>();
  let named = false;
  for (const [key, o] of entries(c)) {
    if (!names(key, sw.name)) continue;
    named = true;
    const { ports: own, ...fields } = o;
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
    for (const [p, po] of Object.entries(own ?? {})) {
      const prev = ports.get(Number(p)) ?? {};
      const link = po.link === undefined ? prev.link : { ...prev.link, ...Object.fromEntries(Object.entries(po.link).filter(([, v]) => v !== undefined)) };
      ports.set(Number(p), { ...prev, ...Object.fromEntries(Object.entries(po).filter(([, v]) => v !== undefined)), ...(link === undefined ? {} : { link }) });
    }
  }
  const buffers = new Map([...ports].flatMap(([p, po]) => (po.inputBuffer === undefined ? [] : [[p, po.inputBuffer] as const])));
  const points = new Map([...ports].flatMap(([p, po]) => (po.congestion === undefined ? [] : [[p, po.congestion as OneCongestion | null] as const])));
  if (buffers.size > 0) {
    out.inputBuffer = perPort<Buffer>(out.inputBuffer as Buffer | undefined, sw.ports, buffers, { packets: DEFAULT_INPUT_PACKETS, reservePerPriority: DEFAULT_RESERVE_PER_PRIORITY });
  }
  if (points.size > 0) out.congestion = perPort<OneCongestion | null>(out.congestion as OneCongestion | (OneCongestion | null)[] | null | undefined, sw.ports, points, null);
  const links = new Map([...ports].flatMap(([p, po]) => (po.link === undefined ? [] : [[p, po.link] as const])));
  return { settings: out as ResolvedSwitchSettings, named, links };
}

/** Link `name`'s settings with its ends' port `link` settings over them (`ends`: the switch ports it joins, from resolveSwitch). */
export function withPortLinks<T extends object>(spec: T, ends: readonly (PortLink | undefined)[]): T {
  let out = spec;
  for (const e of ends) if (e !== undefined) out = { ...out, ...Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) };
  return out;
}

/** What results.json echoes of a switch: its settings, and the `link` settings of its ports by port number. */
export type EchoedSwitch = ResolvedSwitchSettings & { readonly links?: Readonly<Record<string, PortLink>> };

/** The settings of every switch a `switches` entry names, by switch name (results.json echoes them). */
export function overriddenSwitches(c: RunConfig, fabric: Fabric): Record<string, EchoedSwitch> | undefined {
  if (c.switches === undefined || Object.keys(c.switches).length === 0) return undefined;
  const out: Record<string, EchoedSwitch> = {};
  fabric.switches.forEach((sw, s) => {
    const r = resolveSwitch(c, fabric, s);
    if (r.named) out[sw.name] = r.links.size === 0 ? r.settings : { ...r.settings, links: Object.fromEntries([...r.links].map(([p, l]) => [String(p), l])) };
  });
  return out;
}

function examples(fabric: Fabric): string {
  const first = fabric.switches.slice(0, 3).map((s) => s.name);
  const last = fabric.switches.at(-1)?.name;
  return fabric.switches.length > 4 && last !== undefined ? `${first.join(', ')}, …, ${last}` : fabric.switches.map((s) => s.name).join(', ');
}

/** `switches` against the topology: every key names a switch, every port exists and is linked, and each merged switch passes the `switch` block's rules. */
export function checkSwitchOverrides(c: RunConfig, fabric: Fabric): Issue[] {
  const out: Issue[] = [];
  for (const [key, o] of entries(c)) {
    const path = `switches.${key}`;
    const parts = key.split(',').map((p) => p.trim());
    const missing = parts.filter((p) => !fabric.switches.some((sw) => linkPattern(p).test(sw.name)));
    if (missing.length > 0) {
      out.push({ path, message: `expected switch names or patterns that name a switch ("${missing.join('", "')}" names none; the topology has ${fabric.switches.length}: ${examples(fabric)})` });
      continue;
    }
    for (const p of Object.keys(o.ports ?? {})) {
      const port = Number(p);
      for (const [s, sw] of fabric.switches.entries()) {
        if (!names(key, sw.name)) continue;
        if (port >= sw.ports || fabric.peers[s]?.[port] === undefined) {
          const linked = (fabric.peers[s] ?? []).flatMap((peer, i) => (peer === undefined ? [] : [i]));
          out.push({ path: `${path}.ports.${p}`, message: `expected a linked port of ${sw.name} (${sw.ports} ports, linked: ${linked.length === sw.ports ? `0..${sw.ports - 1}` : linked.join(', ')})` });
          break;
        }
      }
    }
  }
  if (out.length > 0) return out;
  const resolved = fabric.switches.map((_, s) => resolveSwitch(c, fabric, s));
  const lastKey = (s: number): string => entries(c).filter(([key]) => names(key, fabric.switches[s]?.name ?? '')).at(-1)?.[0] ?? '';
  for (const l of fabric.links) {
    if (l.kind !== 'fabric') continue;
    const a = resolved[l.a.switch]?.links.get(l.a.port);
    const b = resolved[l.b.switch]?.links.get(l.b.port);
    if (a === undefined || b === undefined) continue;
    for (const [k, v] of Object.entries(b)) {
      const other = (a as Record<string, string | number | undefined>)[k];
      if (v === undefined || other === undefined || other === v) continue;
      out.push({
        path: `switches.${lastKey(l.b.switch)}.ports.${l.b.port}.link.${k}`,
        message: `expected the value the link's other end has: ${l.name} has ${k} ${String(other)} at ${fabric.switches[l.a.switch]?.name ?? '?'} port ${l.a.port}`,
      });
    }
  }
  const seen = new Set<string>();
  fabric.switches.forEach((sw, s) => {
    const r = resolveSwitch(c, fabric, s);
    if (!r.named) return;
    const last = entries(c).filter(([key]) => names(key, sw.name)).at(-1)?.[0] ?? '';
    const issues: Issue[] = [];
    const ctx = { addIssue: (i: { path?: PropertyKey[]; message?: string }) => { issues.push({ path: [`switches.${last}`, ...(i.path ?? []).map(String)].join('.'), message: `${sw.name}: ${i.message ?? 'invalid'}` }); } } as unknown as z.RefinementCtx;
    checkSwitchSettings(r.settings, ctx);
    for (const i of issues) {
      const k = `${i.path}\n${i.message.replace(/^[^:]*: /, '')}`;
      if (!seen.has(k)) out.push(i);
      seen.add(k);
    }
  });
  return out;
}
