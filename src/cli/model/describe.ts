import type { LoadedEngine } from './engines.ts';
import { ENGINE_SUMMARIES, MODEL_SCHEMA } from './names.ts';

/** `riodp model <engine> --describe`: the config fields with their defaults, and the input kinds. */
export function describeEngine(e: LoadedEngine): string {
  const out: string[] = [`riodp model ${e.name}: ${ENGINE_SUMMARIES[e.name]}`, ''];
  out.push('Config fields (--config FILE, JSON or YAML; the header line prints the effective config):');
  const nameWidth = Math.max(...e.fields.map((f) => f.name.length));
  for (const f of e.fields) {
    out.push(`  ${f.name.padEnd(nameWidth)}  ${f.type}; default ${f.default}`);
    out.push(`  ${' '.repeat(nameWidth)}  ${f.meaning}`);
  }
  out.push('', `Input lines (JSON Lines, schema ${MODEL_SCHEMA}; {"t": <ns>, "kind": <kind>, ...fields}):`);
  const kinds = [
    ...e.kinds,
    { kind: 'query', fields: '', meaning: 'prints {"kind":"state","state":…,"counters":…}' },
    { kind: '(none)', fields: '', meaning: '{"t": T} only advances time to T, firing the timers due' },
  ];
  const kindWidth = Math.max(...kinds.map((k) => k.kind.length));
  for (const k of kinds) {
    out.push(`  ${k.kind.padEnd(kindWidth)}  ${k.fields === '' ? k.meaning : `${k.fields}: ${k.meaning}`}`);
  }
  out.push('', 'See docs/model.md for the output lines, the timer rules and an example trace.');
  return `${out.join('\n')}\n`;
}
