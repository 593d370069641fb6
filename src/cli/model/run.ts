import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { cannotRead } from '../../config/yaml-input.ts';
import { describeEngine } from './describe.ts';
import { ModelDriver, TraceError } from './driver.ts';
import { loadEngine } from './engines.ts';
import { readConfig } from './config.ts';
import { MODEL_SCHEMA } from './names.ts';
import type { EngineName } from './names.ts';

/**
 * `riodp model <engine>`: streams JSON Lines from stdin or --input through the driver and prints
 * JSON Lines as they come (docs/model.md). Exit 0, 1 if any line was bad or the timer cap hit, 2
 * for usage, config and schema errors.
 */
export interface ModelFlags {
  readonly config?: string;
  readonly input?: string;
  readonly until?: number;
  readonly describe?: boolean;
  readonly lenient?: boolean;
  /** --max-expiries: the timer loop guard (default 1e6). */
  readonly maxExpiries?: number;
}

/**
 * Output lines are gathered and written once per batch of input lines: when the batch is large,
 * or when the input side goes idle (setImmediate), so a co-simulation that writes one line and
 * waits for the answer gets it at once. A full pipe makes the loop wait for 'drain'.
 */
class LineWriter {
  readonly #stream: Writable;
  #parts: string[] = [];
  #size = 0;
  #scheduled = false;

  constructor(stream: Writable) {
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
    if (this.#stream.writableNeedDrain) await once(this.#stream, 'drain');
  }
}

function fail(errors: readonly string[]): number {
  for (const e of errors) process.stderr.write(`riodp: ${e}\n`);
  return 2;
}

async function inputStream(file: string | undefined): Promise<NodeJS.ReadableStream | string> {
  if (file === undefined) return process.stdin;
  try {
    return (await open(file, 'r')).createReadStream({ encoding: 'utf8' });
  } catch (e) {
    return `--input ${file}: ${cannotRead('it', e)}`;
  }
}

export async function runModel(name: EngineName, flags: ModelFlags): Promise<number> {
  const engine = await loadEngine(name);
  if (flags.describe === true) {
    process.stdout.write(describeEngine(engine));
    return 0;
  }
  const raw = readConfig(flags.config);
  if (!raw.ok) return fail(raw.errors);
  const configured = engine.configure(raw.value, flags.lenient === true);
  if (!configured.ok) return fail(configured.errors);
  const input = await inputStream(flags.input);
  if (typeof input === 'string') return fail([input]);

  const writer = new LineWriter(process.stdout);
  const header = { schema: MODEL_SCHEMA, engine: name, config: configured.effective };
  const driver = new ModelDriver(configured.instance, name, header, {
    out: (line) => { writer.line(JSON.stringify(line)); },
    err: (message) => {
      // stdout first: the error line and the stderr message then appear in input order.
      writer.flush();
      process.stderr.write(`riodp: ${message}\n`);
    },
  }, flags.maxExpiries === undefined ? {} : { maxExpiries: flags.maxExpiries });

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
    rl.close();
    writer.flush();
    return fail([e.message]);
  }
  rl.close();
  driver.finish(driver.stopped ? undefined : flags.until);
  writer.flush();
  return driver.bad > 0 || driver.stopped ? 1 : 0;
}
