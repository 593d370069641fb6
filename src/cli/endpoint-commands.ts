import type { Command } from 'commander';
import { addCaptureOptions } from './capture-flags.ts';
import type { CaptureFlags } from './capture-flags.ts';
import type { RecvFlags } from './endpoint-commands-run.ts';

/**
 * `riodp endpoint`, `send`, `recv`, `status` and `read-reg` (issue 8 §1–§2, docs/fabric-api.md).
 * Option values stay strings here and are checked when a command runs, so each usage error is one
 * stderr line (exit 2); the command module loads only when a command runs (`riodp --help` stays
 * fast). The client commands reach a running end point through its control socket: `--control`,
 * else the RIODP_CONTROL environment variable.
 */
export interface ClientFlags {
  readonly control?: string;
}

export function registerEndpointCommands(program: Command): void {
  const control = '--control <socket>';
  const controlHelp = 'control socket of the running riodp endpoint (default: $RIODP_CONTROL)';
  const endpoint = program
    .command('endpoint')
    .description('run an end point process: a link to its switch port, session management, data streaming, and a control socket for send/recv/status/read-reg (docs/fabric-api.md)')
    .requiredOption('--config <file>', 'end point configuration (YAML)')
    .option(control, 'control socket path (default: the config\'s control, else riodp-<nodeId>.sock in the temp folder)')
    .option('--log <level>', "log level on stderr: fatal, error, warn, info, debug, trace, silent (default: the config's log, else info)")
    // The option's first name, kept; `riodp switch` takes --log too. createOption: no ESM import of commander (main.ts).
    .addOption(program.createOption('--log-level <level>', 'the same as --log').hideHelp())
    .addHelpText('after', '\nPrints one line on stdout once the link is up; runs until SIGINT or SIGTERM. Exit 0 on a signal, 1 when the switch cannot be reached, 2 for a bad configuration.\n');
  addCaptureOptions(endpoint)
    .action(async (flags: { config: string; control?: string; log?: string; logLevel?: string } & CaptureFlags) => {
      const { runEndpoint } = await import('./endpoint-commands-run.ts');
      process.exitCode = await runEndpoint(flags);
    });

  program
    .command('send')
    .description('send a file to another end point over a file-transfer conduit (PDUs of at most 64 KiB, SHA-256 checked by the receiver)')
    .argument('<file>', 'the file to send')
    .requiredOption('--to <id>', 'device ID of the receiving end point')
    .option('--hop <n>', 'hop_count of the discovery reads of the receiver, 0..255 (default 255)')
    .option(control, controlHelp)
    .addHelpText('after', '\nExit 0 when the receiver stored the file with the right SHA-256; 1 otherwise; 2 for a usage error.\n')
    .action(async (file: string, flags: ClientFlags & { to: string; hop?: string }) => {
      const { runSend } = await import('./endpoint-commands-run.ts');
      process.exitCode = await runSend(file, flags);
    });

  program
    .command('recv')
    .description('receive the files other end points send into a folder, one line per file')
    .requiredOption('--out <dir>', 'folder to write the files in')
    .option('--count <n>', 'exit after this many files (default: run until SIGINT)')
    .option('--on-exists <mode>', 'a file whose name the folder has: rename (write it as "name (1).ext", "name (2).ext" …) or refuse (answer the sender "exists" before its data) (default: rename)')
    .option('--max-size <bytes>', 'refuse a file larger than this, at its header: bytes, or with kB, KB, KiB, MB, MiB, GB, GiB (default: 4GiB)')
    .option(control, controlHelp)
    .addHelpText('after', '\nNever replaces a file; part files (.*.riodp-part) of failed transfers are removed, and those of receivers no longer running when recv starts.\nExit 0 when every file arrived intact; 1 if one did not; 2 for a usage error.\n')
    .action(async (flags: RecvFlags) => {
      const { runRecv } = await import('./endpoint-commands-run.ts');
      process.exitCode = await runRecv(flags);
    });

  program
    .command('status')
    .description("print a running end point's link, peers, streams, conduits, XOFF state and counters")
    .option('--json', 'print the status as one JSON object', false)
    .option(control, controlHelp)
    .action(async (flags: ClientFlags & { json: boolean }) => {
      const { runStatus } = await import('./endpoint-commands-run.ts');
      process.exitCode = await runStatus(flags);
    });

  program
    .command('read-reg')
    .description('read a 32-bit register of a node with a Type 8 MAINTENANCE read (Part 1 §4.1.10, Part 3 §2.5) and print it in hex')
    .argument('<offset>', 'byte offset of the register, word-aligned (decimal or 0x hex)')
    .requiredOption('--to <id>', 'destinationID of the read')
    .option('--hop <n>', 'hop_count: 0 reads the first switch, each switch on the way takes one off (default 255: the end point)')
    .option(control, controlHelp)
    .action(async (offset: string, flags: ClientFlags & { to: string; hop?: string }) => {
      const { runReadReg } = await import('./endpoint-commands-run.ts');
      process.exitCode = await runReadReg(offset, flags);
    });
}
