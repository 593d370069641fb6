import type { Command } from 'commander';

/**
 * `riodp serve` (docs/serve.md): the golden models and codecs as a long-running server for
 * testbenches. Option values stay strings here and are checked when the command runs; the serve
 * modules load only then (`riodp --help` stays fast).
 */
const PROTOCOL_HELP = `
Protocol (riodp-serve/1, docs/serve.md): one JSON request per line, each with an "id" (a string
or a number) and an "op"; one JSON response per line, in request order, with the same "id" and
"ok": true and the result, or "ok": false, "code" and "error" ("id": null when the request's id
could not be read). Blank lines and lines starting with # are skipped.

  {"id":1,"op":"ping"}                                   protocol, version, engines, layers
  {"id":2,"op":"create","instance":"cp","engine":"congestion-point","config":{...}}
                                                         an engine instance, named; "header": what
                                                         riodp model prints first (optional
                                                         "lenient", "maxExpiries")
  {"id":3,"op":"input","instance":"cp","t":100,"input":{"kind":"enqueue",...}}
                                                         "outputs": the lines riodp model prints
                                                         for {"t":100,"kind":"enqueue",...}; no
                                                         "input": time passes to t, timers fire
  {"id":4,"op":"snapshot","instance":"cp"}               "t", "state", "counters", "pending"
  {"id":5,"op":"counters","instance":"cp"}               "t", "counters"
  {"id":6,"op":"delete","instance":"cp","until":5000}    "outputs": the timers due up to until,
                                                         then the end line
  {"id":7,"op":"list"}                                   this client's instances
  {"id":8,"op":"describe","engine":"arb-rx"}             config fields and input kinds
  {"id":9,"op":"decode","layer":"serial","hex":"001a0001ffff0000deaf9903"}
                                                         "value": what riodp decode --json prints
  {"id":10,"op":"encode","layer":"serial","value":{...}} "hex": what riodp encode prints
  decode and encode take riodp decode's options as fields: layer, link, voqFormat,
  voqGroupSize, lenient.

Instances belong to the client (stdin, or one connection) that created them and go when it
closes. Without --listen the server ends when stdin ends (exit 0); with it, stdin is one client
among the connections, the bound address is printed on stderr ("riodp serve: listening on
127.0.0.1:PORT"), and the server runs until SIGINT or SIGTERM (exit 0). Exit 2 for a usage
error, 1 when it cannot listen.
`;

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the golden models (riodp model engines) and the codecs (decode, encode) to testbenches: JSON Lines requests on stdin and, with --listen, on a loopback TCP port or a Unix socket (docs/serve.md)')
    .option('--listen <address>', 'also serve connections: 127.0.0.1:PORT or [::1]:PORT (loopback only; port 0: any free port) or a Unix socket path')
    .option('--max-line <bytes>', 'the longest request line; a longer one is an error response', '1048576')
    .addHelpText('after', PROTOCOL_HELP)
    .action(async (flags: { listen?: string; maxLine: string }) => {
      const { runServe } = await import('./run.ts');
      process.exitCode = await runServe(flags, program.version() ?? 'unknown');
    });
}
