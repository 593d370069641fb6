import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as CommanderModule from 'commander';
import { VOQ_FORMATS } from '../wire/voq-stype2.ts';
import { CLI_LINKS, LAYERS, isPortGroupSize } from './codec-flags.ts';
import type { CodecFlags } from './codec-flags.ts';
import { ENGINE_NAMES, ENGINE_SUMMARIES } from './model/names.ts';
import type { EngineName } from './model/names.ts';
import { messagesCommand } from './messages-command.ts';
import { streamingCommands } from './streaming-commands.ts';
import { registerSwitchCommand } from './switch.ts';
import { registerEndpointCommands } from './endpoint-commands.ts';
import { registerServeCommand } from './serve/command.ts';

// commander is CommonJS: require() loads it in ~15 ms where the ESM wrapper takes ~35 ms, and
// `riodp --help` is called in loops by users' scripts.
const { Argument, Command, CommanderError, InvalidArgumentError, Option } = createRequire(import.meta.url)('commander') as typeof CommanderModule;
type Command = CommanderModule.Command;

function codecOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--layer <layer>', 'what each item is').choices(LAYERS).default('serial'))
    .addOption(new Option('--link <link>', 'control symbol size of the link (CS24 links also carry 5-bit ackIDs)').choices(CLI_LINKS).default('cs48'))
    .addOption(new Option('--voq-format <format>', 'stype2 VoQ backpressure format').choices(VOQ_FORMATS).default('seed'))
    .addOption(new Option('--voq-group-size <n>', 'port group size field (bits, 0..6) of the part12-rev4.1 format (and of CS64 VoQ symbols)').argParser(parseGroupSize))
    .option('--lenient', 'accept reserved and undefined values (labelled) instead of rejecting them', false);
}

function parseGroupSize(v: string): number {
  // Digits only: Number() would take '', ' ', '0x3' and '1e0' as well.
  if (!/^\d$/.test(v) || !isPortGroupSize(Number(v))) throw new InvalidArgumentError(`'${v}' is not a bit count 0..6`);
  return Number(v);
}

/** Times are integer nanoseconds (docs/model.md): digits only, a safe integer. */
function parseCount(what: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new InvalidArgumentError(`'${v}' is not ${what}`);
    return Number(v);
  };
}

/** A positive decimal, e.g. 0.1 or 10: digits only, so '', '0x1' and '1e3' are refused as Number() would not. */
function parseFactor(v: string): number {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(v) || !(Number(v) > 0)) throw new InvalidArgumentError(`'${v}' is not a positive number`);
  return Number(v);
}

/** `--interface a,b --interface c`: every name, in order. */
function collectNames(v: string, previous: string[] | undefined): string[] {
  const names = v.split(',').map((n) => n.trim());
  if (names.some((n) => n === '')) throw new InvalidArgumentError(`'${v}' is not a list of interface names (a name, or names separated by commas)`);
  return [...(previous ?? []), ...names];
}

function modelCommand(program: Command): void {
  const width = Math.max(...ENGINE_NAMES.map((n) => n.length));
  const engines = ENGINE_NAMES.map((n) => `  ${n.padEnd(width)}  ${ENGINE_SUMMARIES[n]}`).join('\n');
  program
    .command('model')
    .description('run a Part 9, Part 10 or VoQ backpressure engine as a golden model, or an Annex 2 session management end point: JSON Lines in (stdin or --input), JSON Lines out (docs/model.md)')
    .addArgument(new Argument('<engine>', 'the engine to run').choices(ENGINE_NAMES))
    .option('--config <file>', 'engine configuration, JSON or YAML (riodp model <engine> --describe lists the fields)')
    .option('--input <file>', 'read the input lines from a file instead of stdin')
    .option('--until <t>', 'after the last input, fire the timers due up to time t (ns)', parseCount('a time in nanoseconds'))
    .option('--lenient', 'accept packets with reserved or undefined values (labelled) instead of rejecting the line', false)
    .option('--max-expiries <n>', 'timer expiries allowed in a run before it stops as a timer loop', parseCount('a count'), 1_000_000)
    .option('--describe', "print the engine's config fields with their defaults and its input kinds, then exit", false)
    .option('--pcap <file>', "read the inputs from a riodp capture (pcapng, docs/pcapng.md): each packet or control symbol record becomes the engine's input for it")
    .option('--interface <names>', 'with --pcap: the interfaces to read (repeatable, or a comma list); needed when several carry inputs for the engine', collectNames)
    .addHelpText('after', `\nEngines:\n${engines}\n`)
    .action(async (engine: EngineName, flags: { config?: string; input?: string; until?: number; lenient: boolean; maxExpiries: number; describe: boolean; pcap?: string; interface?: string[] }) => {
      const { runModel } = await import('./model/run.ts');
      process.exitCode = await runModel(engine, flags);
    });
}

function simCommand(program: Command): void {
  program
    .command('sim')
    .description('simulate a fabric scenario (the built-in one with no argument, with the published-result reproductions) and write an HTML report, results.json and CSVs (docs/simulator.md)')
    .argument('[scenario]', 'scenario file (YAML)')
    .option('--out <dir>', "report directory (default: the scenario's output.dir, else riodp-report)")
    .option('--seed <n>', "seed of every variant's random streams, replacing the scenario's (and the reproductions' seeds)", parseCount('a seed (a non-negative integer)'))
    .option('--json', 'print the summary as one JSON object instead of a table', false)
    .option('--reproduce', 'add the published-result reproductions (Karol 1987, output-queued wait, iSLIP, Pfister & Norton) to the report: on by default with no scenario file, off with one')
    .option('--no-reproduce', 'skip the published-result reproductions (faster)')
    .option('--reproduce-scale <factor>', 'run lengths of the reproductions times factor (default 1; shorter runs are less precise and may leave a tolerance); implies --reproduce', parseFactor)
    .option('--pcap <dir>', "write a pcapng capture of every link of the scenario's fabric into dir, one file per link (docs/pcapng.md; a folder per variant when there are several)")
    .option('--pcap-max-bytes <size>', 'largest capture file, bytes or with B, KB, KiB, MB, MiB (at least 1KiB); past it a file records nothing more and the summary counts what was left out (default 100MB per file)')
    .option('--pcap-until <time>', 'record only up to this simulated time: ps, or with ps, ns, us, ms, s as in scenarios (default: the whole run)')
    .action(async (file: string | undefined, flags: { out?: string; seed?: number; json: boolean; reproduce?: boolean; reproduceScale?: number; pcap?: string; pcapMaxBytes?: string; pcapUntil?: string }) => {
      const { runSim } = await import('./sim.ts');
      process.exitCode = await runSim(file, flags);
    });
}

function sweepCommand(program: Command): void {
  program
    .command('sweep')
    .description('run a scenario over a parameter grid in worker threads and write an HTML report with throughput-vs-load curves, results.json, points.csv and curves.csv (latency–load curves); or run the grid in pieces on other machines and merge (docs/simulator.md)')
    .argument('[grid]', 'grid file (YAML)')
    .option('--out <dir>', 'report directory (default riodp-sweep); with --shard the folder of its point results; with --run-point the result file (default stdout)')
    .option('--workers <n>', 'worker threads (default: one per core, at most one per grid point)', parseCount('a count'))
    .option('--json', 'print the results as one JSON object instead of a table', false)
    .option('--emit-points <dir>', 'write one self-contained file per grid point into dir (point-0000.json …) and exit')
    .option('--run-point <file>', 'run one point file (- for stdin) and print its result as JSON')
    .option('--shard [i/N]', "run the points whose index is i modulo N (i from 0) and write their results into --out; no value: from the Slurm array (SLURM_ARRAY_TASK_ID)")
    .option('--merge <dir>', 'build the report of a grid from the point results in dir (from --run-point or --shard)')
    // Refused with a reason rather than as an unknown option: captures are riodp sim's.
    .addOption(new Option('--pcap <dir>').hideHelp())
    .action(async (file: string | undefined, flags: { out?: string; workers?: number; json: boolean; emitPoints?: string; runPoint?: string; shard?: string | true; merge?: string; pcap?: string }) => {
      if (flags.pcap !== undefined) {
        process.stderr.write('riodp sweep: --pcap: a sweep does not capture its links (its points run in worker threads); run one point with riodp sim SCENARIO --pcap DIR\n');
        process.exitCode = 2;
        return;
      }
      const { runSweep } = await import('./sweep.ts');
      process.exitCode = await runSweep(file, flags);
    });
}

function packageVersion(): string {
  // src/cli/main.ts and dist/cli/main.js both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/**
 * The `riodp` command. Subcommand modules are imported only when a subcommand runs, so that
 * `riodp --help` starts fast: users call it in loops from their scripts.
 */
export function buildProgram(): Command {
  const program = new Command('riodp')
    .description('RapidIO data plane reference implementation: bit-exact codecs and protocol engines')
    .version(packageVersion())
    .showHelpAfterError('(riodp --help for usage)')
    .exitOverride();

  codecOptions(
    program
      .command('decode')
      .description('decode hex items (arguments, or stdin one per line) into a field tree or JSON')
      .argument('[hex...]', 'items to decode; whitespace and 0x are tolerated inside an argument')
      .option('--json', 'print one JSON object per item', false)
      .option('--smp', 'also decode the Annex 2 session management message a single-segment Type 11 or Type 9 packet carries (field smp)', false)
      .option('--pcap <file>', 'decode every record of a riodp capture (pcapng, docs/pcapng.md) instead of hex items; each record says what it holds'),
  ).action(async (hex: string[], flags: CodecFlags & { json: boolean; smp: boolean; pcap?: string }, cmd: Command) => {
    if (flags.pcap !== undefined) {
      // The record's kind says what its body is: an explicit --layer or --link could only disagree.
      const given = ['layer', 'link'].filter((o) => cmd.getOptionValueSource(o) === 'cli');
      if (hex.length > 0 || given.length > 0) {
        process.stderr.write(`riodp: --pcap reads its records from the file: ${hex.length > 0 ? 'hex items' : `--${given.join(' and --')}`} cannot be given with it\n`);
        process.exitCode = 2;
        return;
      }
      const { runDecodePcap } = await import('./decode-pcap.ts');
      process.exitCode = await runDecodePcap(flags.pcap, flags);
      return;
    }
    const { runDecode } = await import('./decode.ts');
    process.exitCode = await runDecode(hex, flags);
  });

  codecOptions(
    program
      .command('encode')
      .description('encode JSON items (as decode --json prints them; argument, or stdin one per line) into hex')
      .argument('[json...]', 'JSON objects to encode'),
  ).action(async (json: string[], flags: CodecFlags) => {
    const { runEncode } = await import('./encode.ts');
    process.exitCode = await runEncode(json, flags);
  });

  modelCommand(program);
  streamingCommands(program);
  messagesCommand(program);
  simCommand(program);
  sweepCommand(program);
  registerSwitchCommand(program);
  registerEndpointCommands(program);
  registerServeCommand(program);
  return program;
}

let stdoutWatched = false;

/**
 * A reader that stops early (`riodp decode … | head`) closes the pipe; stop quietly, as Unix
 * filters do, rather than die on the unhandled EPIPE with a stack trace.
 */
function endQuietlyOnClosedStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

export async function main(argv: readonly string[]): Promise<number> {
  endQuietlyOnClosedStdout();
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit 0; every other parse failure is a usage error (exit 2).
      return e.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`riodp: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 70;
  }
}
