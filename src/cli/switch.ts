import type { Command } from 'commander';
import { addCaptureOptions } from './capture-flags.ts';
import type { CaptureFlags } from './capture-flags.ts';

/**
 * `riodp switch --config FILE` (issue 8 §1): runs one switch of the software fabric until SIGINT
 * or SIGTERM, then closes every link (CLOSE normal "shutdown") and exits 0. stdout gets one line
 * per port once it listens; the log (JSON lines) goes to stderr. Exit 2 for a configuration that
 * cannot be used (one "file: path: problem" line each), 1 when a port cannot listen.
 *
 * The net modules are imported when the command runs, so that `riodp --help` stays fast.
 */

export interface SwitchFlags extends CaptureFlags {
  readonly config: string;
  readonly log?: string;
}

/** An address as people write it: IPv6 in brackets. */
function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export async function runSwitch(flags: SwitchFlags): Promise<number> {
  const [{ SwitchConfigError, loadSwitchConfig }, { startSwitch }, { LOG_LEVELS, makeLogger }, { formatIssue }, { captureSettings }] = await Promise.all([
    import('../net/switch-config.ts'),
    import('../net/switch-process.ts'),
    import('../net/log.ts'),
    import('../config/issues.ts'),
    import('./capture-settings.ts'),
  ]);
  const level = flags.log;
  if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level)) {
    process.stderr.write(`riodp switch: --log: expected one of ${LOG_LEVELS.join(', ')}\n`);
    return 2;
  }
  const capture = captureSettings(flags);
  if (typeof capture === 'string') {
    process.stderr.write(`riodp switch: ${capture}\n`);
    return 2;
  }
  let config: ReturnType<typeof loadSwitchConfig>;
  try {
    config = loadSwitchConfig(flags.config);
  } catch (e) {
    if (!(e instanceof SwitchConfigError)) throw e;
    for (const i of e.issues) process.stderr.write(`riodp switch: ${flags.config}: ${formatIssue(i)}\n`);
    return 2;
  }
  const logger = makeLogger({ level: (level as (typeof LOG_LEVELS)[number] | undefined) ?? config.log, name: 'switch' });
  let sw: Awaited<ReturnType<typeof startSwitch>>;
  try {
    sw = await startSwitch(config, { logger, ...(capture === undefined ? {} : { capture }) });
  } catch (e) {
    process.stderr.write(`riodp switch: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  for (const a of sw.addresses) process.stdout.write(`port ${a.port} listening on ${hostPort(a.host, a.tcpPort)}${config.tls === undefined ? '' : ' (tls)'}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (s: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(s);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  logger.info({ signal }, 'shutdown');
  await sw.close();
  return 0;
}

export function registerSwitchCommand(program: Command): void {
  const cmd = program
    .command('switch')
    .description('run a switch of the software fabric: one switch processing element with each port a TCP listener, until SIGINT/SIGTERM (docs/fabric-switch.md)')
    .requiredOption('--config <file>', 'switch configuration (YAML)')
    .option('--log <level>', "log level instead of the configuration's: fatal, error, warn, info, debug, trace or silent");
  addCaptureOptions(cmd)
    .action(async (flags: SwitchFlags) => {
      process.exitCode = await runSwitch(flags);
    });
}
