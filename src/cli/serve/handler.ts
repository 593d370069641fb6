import { LAYERS } from '../codec-flags.ts';
import { ENGINE_NAMES } from '../model/names.ts';
import { decodeOp, encodeOp } from './codec.ts';
import { Instances, describeOp } from './instances.ts';
import { SERVE_PROTOCOL, ServeError, errorResponse, isRecord, onlyFields } from './request.ts';
import type { Request, RequestId, Response } from './request.ts';

/**
 * The request handler of one `riodp serve` client, free of I/O: a request line in, its response
 * out. Every failure is an error response (docs/serve.md "Errors"); nothing a client sends ends
 * the server. The response is a Promise only while an engine module loads (the first `create` or
 * `describe` of an engine in the process); the caller answers requests in order.
 */
type Result = Record<string, unknown> | Promise<Record<string, unknown>>;

export interface HandlerOptions {
  /** riodp's version, for `ping`. */
  readonly version: string;
}

function readId(v: Record<string, unknown>): RequestId {
  const id = v['id'];
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  throw new ServeError('request', `${id === undefined ? 'missing, expected' : 'expected'} the request id, a string or a number (id)`);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class ServeHandler {
  readonly #instances = new Instances();
  readonly #ops: Readonly<Record<string, (req: Request) => Result>>;

  constructor(opts: HandlerOptions) {
    const i = this.#instances;
    this.#ops = {
      ping: (req) => {
        onlyFields(req, []);
        return { protocol: SERVE_PROTOCOL, version: opts.version, engines: ENGINE_NAMES, layers: LAYERS };
      },
      describe: describeOp,
      create: (req) => i.create(req),
      input: (req) => i.input(req),
      snapshot: (req) => i.snapshot(req),
      counters: (req) => i.counters(req),
      delete: (req) => i.delete(req),
      list: (req) => i.list(req),
      decode: decodeOp,
      encode: encodeOp,
    };
  }

  /** The ops a request may name. */
  get ops(): readonly string[] {
    return Object.keys(this.#ops);
  }

  /** One request line. */
  line(text: string): Response | Promise<Response> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return errorResponse(null, new ServeError('json', `not JSON: ${message(e)}`));
    }
    return this.request(value);
  }

  /** One parsed request. */
  request(value: unknown): Response | Promise<Response> {
    if (!isRecord(value)) return errorResponse(null, new ServeError('json', 'expected a JSON object {"id": …, "op": …}'));
    let id: RequestId = null;
    try {
      id = readId(value);
      const op = value['op'];
      if (typeof op !== 'string') throw new ServeError('request', `${op === undefined ? 'missing, expected' : 'expected'} the op, a string (op)`);
      const run = Object.hasOwn(this.#ops, op) ? this.#ops[op] : undefined;
      if (run === undefined) throw new ServeError('op', `unknown op ${JSON.stringify(op)}: expected one of ${this.ops.join(', ')} (op)`);
      const result = run(value);
      if (result instanceof Promise) return result.then((r) => ({ id, ok: true, ...r }), (e: unknown) => this.#failed(id, e));
      return { id, ok: true, ...result };
    } catch (e) {
      return this.#failed(id, e);
    }
  }

  /** The client went away: its instances go. */
  close(): void {
    this.#instances.clear();
  }

  #failed(id: RequestId, e: unknown): Response {
    if (e instanceof ServeError) return errorResponse(id, e);
    // A bug, not the client's fault: reported, and the server goes on.
    return errorResponse(id, new ServeError('internal', `internal error: ${message(e)}`));
  }
}
