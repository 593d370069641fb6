import type { Readable, Writable } from 'node:stream';
import { ServeHandler } from './handler.ts';
import type { HandlerOptions } from './handler.ts';
import { LineSplitter, TOO_LONG } from './lines.ts';
import type { LineItem } from './lines.ts';
import { ServeError, errorResponse } from './request.ts';
import type { Response } from './request.ts';

/**
 * One `riodp serve` client: requests read from `input`, responses written to `output`, in request
 * order, with a handler (and so engine instances) of its own. The responses to the lines of one
 * read are written together, so a pipelining client gets them in few writes and a client that
 * sends one request and waits gets its answer at once. Reading waits while `output` is full: a
 * client that sends without reading the answers is slowed, not buffered without bound.
 */
export interface SessionOptions extends HandlerOptions {
  /** The longest request line in bytes. */
  readonly maxLine: number;
}

/** Resolves on 'drain', or when the stream closes or fails (no 'drain' would come). */
function drained(output: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      output.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    output.on('drain', done).on('close', done).on('error', done);
  });
}

function tooLong(max: number): Response {
  return errorResponse(null, new ServeError('line-too-long', `line longer than ${max} bytes: dropped up to its newline (--max-line)`));
}

function isRequest(text: string): boolean {
  // Blank lines and '#' comments are skipped, as in riodp model traces.
  const t = text.trimStart();
  return t !== '' && !t.startsWith('#');
}

async function answer(items: readonly LineItem[], handler: ServeHandler, max: number, output: Writable): Promise<void> {
  const parts: string[] = [];
  for (const item of items) {
    if (item !== TOO_LONG && !isRequest(item)) continue;
    let r = item === TOO_LONG ? tooLong(max) : handler.line(item);
    if (r instanceof Promise) r = await r;
    parts.push(JSON.stringify(r), '\n');
  }
  if (parts.length === 0 || output.destroyed) return;
  if (!output.write(parts.join(''))) await drained(output);
}

export async function serveSession(input: Readable, output: Writable, opts: SessionOptions): Promise<void> {
  const handler = new ServeHandler(opts);
  const lines = new LineSplitter(opts.maxLine);
  try {
    for await (const chunk of input) {
      await answer(lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)), handler, opts.maxLine, output);
    }
    await answer(lines.end(), handler, opts.maxLine, output);
  } catch (e) {
    // A connection reset ends this client only.
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
  } finally {
    handler.close();
  }
}
