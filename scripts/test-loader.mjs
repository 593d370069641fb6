// `node --import ./scripts/test-loader.mjs`: runs TypeScript as `--import tsx` does for riodp's
// tests (ES modules, relative '.ts' specifiers, source-mapped stack traces), at about half of tsx's
// start-up cost. npm test (scripts/run-tests.mjs) gives each test process, and the worker threads
// that inherit its execArgv, the folder it transpiled the repository into, in RIODP_TEST_TS.
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';

process.setSourceMapsEnabled(true);
const root = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');
const given = process.env['RIODP_TEST_TS'];
const transpiled = given !== undefined && given !== '' ? JSON.parse(given) : { dir: null, since: 0 };
register('./test-loader-hooks.mjs', import.meta.url, { data: { root, dir: transpiled.dir, since: transpiled.since } });
