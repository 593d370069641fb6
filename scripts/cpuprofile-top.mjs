#!/usr/bin/env node
// The top self-time functions and files of a V8 .cpuprofile (`node --cpu-prof`), as percentages
// of the profile's sampled time (docs/performance.md "Simulator at scale: profile").
//   node scripts/cpuprofile-top.mjs FILE.cpuprofile [N]
import { readFileSync } from 'node:fs';

const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const n = Number(process.argv[3] ?? 25);
const nodes = new Map(p.nodes.map((x) => [x.id, x]));
const selfBy = new Map();
let total = 0;
p.samples.forEach((id, i) => {
  const d = p.timeDeltas[i] ?? 0;
  selfBy.set(id, (selfBy.get(id) ?? 0) + d);
  total += d;
});
const byFn = new Map();
const byFile = new Map();
const add = (m, k, t) => m.set(k, (m.get(k) ?? 0) + t);
for (const [id, t] of selfBy) {
  const cf = nodes.get(id).callFrame;
  const file = cf.url.split('/').slice(-2).join('/') || `(${cf.functionName || 'native'})`;
  add(byFn, `${cf.functionName || '(anonymous)'} ${file}:${cf.lineNumber + 1}`, t);
  add(byFile, file, t);
}
const show = (title, m) => {
  console.log(`${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${(100 * t / total).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`sampled ${(total / 1e6).toFixed(1)} s`);
show('self time by function', byFn);
show('self time by file', byFile);
