#!/usr/bin/env node
// The package as users get it (issue 18 item 1, docs/api.md "Checking the package"): `npm pack`,
// publint and @arethetypeswrong/cli on the tarball, then a scratch project that installs the
// tarball and uses every entry point from TypeScript (type-checked with the project's TypeScript,
// NodeNext, strict), from plain JavaScript (import) and from CommonJS (require of ESM, Node
// ≥ 20.19). Run by CI after the tests; exits non-zero on the first failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => (k === '.' ? 'riodp' : `riodp/${k.slice(2)}`));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'riodp-pack-'));

function run(cmd, args, cwd) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
}

// What each entry must give: a value export a user reaches for first, and a type that names it.
const uses = {
  riodp: { value: 'wire.decodePacket', type: 'wire.Packet' },
  'riodp/wire': { value: 'decodePacket', type: 'Packet' },
  'riodp/registers': { value: 'buildEndpointRegisters', type: 'RegisterSpace' },
  'riodp/engines': { value: 'Segmenter', type: 'SegmenterConfig' },
  'riodp/node': { value: 'SwitchElement', type: 'SwitchElementConfig' },
  'riodp/sim': { value: 'runScenario', type: 'SimResults' },
  'riodp/net': { value: 'startEndpoint', type: 'RiodpEndpoint' },
};

try {
  run(npm, ['pack', '--pack-destination', work, '--silent'], root);
  const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
  run('npx', ['publint', '--strict', tarball], root);
  run('npx', ['attw', tarball, '--profile', 'esm-only'], root);

  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  const tsVersion = JSON.parse(readFileSync(join(root, 'node_modules/typescript/package.json'), 'utf8')).version;
  const nodeTypes = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version;
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `typescript@${tsVersion}`, `@types/node@${nodeTypes}`], app);

  const missing = entries.filter((e) => uses[e] === undefined);
  if (missing.length > 0) throw new Error(`check-package.mjs: no use written for ${missing.join(', ')}`);
  const alias = (e) => `m_${e.replace(/\W/g, '_')}`;
  const ts = entries.map((e) => `import * as ${alias(e)} from '${e}';\n`).join('')
    + entries.map((e) => `const v_${alias(e)}: unknown = ${alias(e)}.${uses[e].value};\nexport type T_${alias(e)} = ${alias(e)}.${uses[e].type};\nconsole.log(typeof v_${alias(e)});\n`).join('');
  writeFileSync(join(app, 'check.ts'), ts);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: false, exactOptionalPropertyTypes: true },
    files: ['check.ts'],
  }));
  run('npx', ['tsc', '-p', 'tsconfig.json'], app);

  const js = entries.map((e) => `import * as ${alias(e)} from '${e}';\n`).join('')
    + entries.map((e) => `if (typeof ${alias(e)}.${uses[e].value} !== 'function') throw new Error('${e}: ${uses[e].value} is not a function');\n`).join('')
    + `const { decodePacket, encodePacket } = m_riodp_wire;\nconst b = new Uint8Array(16);\nconst n = encodePacket({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 1, sourceID: 2, rsrv: 0, srcTID: 3, info: 0xbeef }, b, 0);\nconst p = decodePacket(b, 0, n);\nif (p.ftype !== 10 || p.info !== 0xbeef) throw new Error('a doorbell did not come back');\nconsole.log('esm ok');\n`;
  writeFileSync(join(app, 'check.mjs'), js);
  run(process.execPath, ['check.mjs'], app);

  const cjs = entries.map((e) => `const ${alias(e)} = require('${e}');\nif (typeof ${alias(e)}.${uses[e].value} !== 'function') throw new Error('${e}: ${uses[e].value} is not a function (require)');\n`).join('') + `console.log('cjs ok');\n`;
  writeFileSync(join(app, 'check.cjs'), cjs);
  run(process.execPath, ['check.cjs'], app);
  console.log(`package check passed: ${entries.join(', ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
