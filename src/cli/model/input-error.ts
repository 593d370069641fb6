import { LineError, nameErrorClass } from '../line-error.ts';

/**
 * A bad input line: `path` is the field (dotted JSON path), `message` what is wrong with it.
 * Thrown by the zod helpers (schema.ts), the packet readers (packets.ts) and the engine adapters;
 * the driver prints it as one stderr line and goes on with the next line.
 */
export class InputError extends LineError {
  readonly path: string;

  constructor(message: string, path = '') {
    super(message);
    this.path = path;
  }
}
nameErrorClass(InputError, 'InputError');
