import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { cannotRead } from '../../config/yaml-input.ts';
import { LineError } from '../line-error.ts';
import { processIo } from '../stream-io.ts';
import { UsageError } from '../stream-options.ts';
import type { CliIo } from '../stream-io.ts';
import { describeEngine } from './describe.ts';
import { ModelDriver, TraceError } from './driver.ts';
import { loadEngine } from './engines.ts';
import { readConfig } from './config.ts';
import { MODEL_SCHEMA } from './names.ts';
import type { EngineName } from './names.ts';
import { openCapture, pcapRefusal } from './pcap-input.ts';
import type { CaptureInput } from './pcap-input.ts';

/**
 * `riodp model <engine>`: streams JSON Lines from stdin or --input (or the records of a capture,
 * --pcap) through the driver and prints JSON Lines as they come (docs/model.md). Exit 0, 1 if any
 * line or record was bad or the timer cap hit, 2 for usage, config and schema errors.
 */
export interface ModelFlags {
  readonly config?: string;
  readonly input?: string;
  readonly until?: number;
  readonly describe?: boolean;
  readonly lenient?: boolean;
  /** --max-expiries: the timer loop guard (default 1e6). */
  readonly maxExpiries?: number;
  /** --pcap: the records of a riodp capture are the input (docs/model.md "Captures"). */
  readonly pcap?: string;
  /** --interface: the capture's interfaces to read. */
  readonly interface?: readonly string[];
}

/**
 * Output lines are gathered and written once per batch of input lines: when the batch is large,
 * or when the input side goes idle (setImmediate), so a co-simulation that writes one line and
 * waits for the answer gets it at once. A full pipe makes the loop wait for 'drain'.
 */
type Out = NodeJS.WritableStream & { readonly writableNeedDrain?: boolean };

class LineWriter {
  readonly #stream: Out;
  #parts: string[] = [];
  #size = 0;
  #scheduled = false;

  constructor(stream: Out) {
    this.#stream = stream;
  }

  line(text: string): void {
    this.#parts.push(text, '\n');
    this.#size += text.length + 1;
    if (this.#size >= 1 << 16) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (this.#size === 0) return;
    const text = this.#parts.join('');
    this.#parts = [];
    this.#size = 0;
    this.#stream.write(text);
  }

  /** Waits while the stream holds more than its high-water mark (a write returned false, no 'drain' yet). */
  async ready(): Promise<void> {
    if (this.#stream.writableNeedDrain === true) await once(this.#stream, 'drain');
  }
}

function fail(io: CliIo, errors: readonly string[]): number {
  for (const e of errors) io.stderr.write(`riodp: ${e}\n`);
  return 2;
}

async function inputStream(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<NodeJS.ReadableStream | string> {
  if (file === undefined) return stdin;
  try {
    return (await open(file, 'r')).createReadStream({ encoding: 'utf8' });
  } catch (e) {
    return `--input ${file}: ${cannotRead('it', e)}`;
  }
}

/** What `--pcap` and `--interface` cannot be given with (usage errors, exit 2). */
function captureConflict(name: EngineName, flags: ModelFlags): string | undefined {
  if (flags.pcap === undefined) return flags.interface === undefined ? undefined : '--interface chooses the interfaces of a capture: it needs --pcap FILE';
  if (flags.input !== undefined) return `--pcap reads the inputs from ${flags.pcap}: --input cannot be given with it`;
  if (flags.describe === true) return '--describe reads no input: --pcap cannot be given with it';
  return pcapRefusal(name);
}

export async function runModel(name: EngineName, flags: ModelFlags, io: CliIo = processIo()): Promise<number> {
  const conflict = captureConflict(name, flags);
  if (conflict !== undefined) return fail(io, [conflict]);
  const engine = await loadEngine(name);
  if (flags.describe === true) {
    io.stdout.write(describeEngine(engine));
    return 0;
  }
  const raw = readConfig(flags.config);
  if (!raw.ok) return fail(io, raw.errors);
  const configured = engine.configure(raw.value, flags.lenient === true);
  if (!configured.ok) return fail(io, configured.errors);
  let capture: CaptureInput | undefined;
  let input: NodeJS.ReadableStream | undefined;
  if (flags.pcap === undefined) {
    const opened = await inputStream(flags.input, io.stdin);
    if (typeof opened === 'string') return fail(io, [opened]);
    input = opened;
  } else {
    try {
      capture = await openCapture(name, flags.pcap, flags.interface);
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      return fail(io, [e instanceof UsageError ? e.message : `--pcap ${e.message}`]);
    }
  }

  const writer = new LineWriter(io.stdout);
  const header = { schema: MODEL_SCHEMA, engine: name, config: configured.effective, ...(capture === undefined ? {} : { pcap: capture.header }) };
  const driver = new ModelDriver(configured.instance, name, header, {
    out: (line) => { writer.line(JSON.stringify(line)); },
    err: (message) => {
      // stdout first: the error line and the stderr message then appear in input order.
      writer.flush();
      io.stderr.write(`riodp: ${message}\n`);
    },
  }, {
    ...(flags.maxExpiries === undefined ? {} : { maxExpiries: flags.maxExpiries }),
    ...(capture === undefined ? {} : { unit: 'record' as const }),
  });

  if (capture !== undefined) {
    for (const item of capture.items()) {
      if ('error' in item) driver.reject(item.n, item.error);
      else driver.line(JSON.stringify(item.line), item.n);
      if (driver.stopped) break;
      await writer.ready();
    }
  } else if (input !== undefined) {
    const refused = await readLines(input, driver, writer);
    if (refused !== undefined) return fail(io, [refused]);
  }
  driver.finish(driver.stopped ? undefined : flags.until);
  writer.flush();
  if (capture !== undefined) io.stderr.write(`riodp: ${capture.summary()}\n`);
  return driver.bad > 0 || driver.stopped ? 1 : 0;
}

/** The input lines through the driver; the message of a trace it refuses as a whole. */
async function readLines(input: NodeJS.ReadableStream, driver: ModelDriver, writer: LineWriter): Promise<string | undefined> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of rl) {
      driver.line(text, ++n);
      if (driver.stopped) break;
      await writer.ready();
    }
  } catch (e) {
    if (!(e instanceof TraceError)) throw e;
    writer.flush();
    return e.message;
  } finally {
    rl.close();
  }
  return undefined;
}
