/**
 * A bad input line: `path` is the field (dotted JSON path), `message` what is wrong with it.
 * Thrown by the zod helpers (schema.ts), the packet readers (packets.ts) and the engine adapters;
 * the driver prints it as one stderr line and goes on with the next line.
 */
export class InputError extends Error {
  readonly path: string;

  constructor(message: string, path = '') {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.path = path;
  }
}
Object.defineProperty(InputError.prototype, 'name', { value: 'InputError', writable: true, configurable: true });
