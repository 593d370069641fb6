import { once } from 'node:events';
import { open, readFile } from 'node:fs/promises';
import { LineError, nameErrorClass } from './line-error.ts';

/**
 * The standard streams of `riodp segment` and `riodp reassemble`, passed in so that tests can run
 * a command on in-memory streams as well as in a child process.
 */
export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/** A file error: printed as one line, exit 1 (a usage error is exit 2). */
export class FileError extends LineError {}
nameErrorClass(FileError, 'FileError');

/** `<what> <path>: cannot <verb> it (<errno code>)`, the form `riodp model --input` uses. */
export function fileError(what: string, verb: string, e: unknown): FileError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return new FileError(`${what}: cannot ${verb} it${code === undefined ? '' : ` (${code})`}`);
}

/** `-` and no FILE both mean stdin, as for most Unix filters. */
export function isStdin(file: string | undefined): file is undefined | '-' {
  return file === undefined || file === '-';
}

/** A whole binary input: FILE, or stdin. */
export async function readBytes(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<Uint8Array> {
  if (isStdin(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(file);
  } catch (e) {
    throw fileError(file, 'read', e);
  }
}

/** A text input to read line by line: FILE, or stdin. */
export async function textInput(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<NodeJS.ReadableStream> {
  if (isStdin(file)) return stdin;
  try {
    return (await open(file, 'r')).createReadStream({ encoding: 'utf8' });
  } catch (e) {
    throw fileError(file, 'read', e);
  }
}

/** Writes and, when the stream is full, waits for 'drain' so that a large output does not pile up in memory. */
export async function writeChunk(stream: NodeJS.WritableStream, chunk: Uint8Array | string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}
