/**
 * Base of the CLI's expected errors (a bad input line, a usage error, a file error): they are
 * printed as one line and never with a stack, so none is captured (Error.stackTraceLimit = 0
 * while constructing — capturing costs microseconds per bad line in large traces).
 */
export class LineError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** Gives an error class its own `name`, as a non-enumerable prototype property (like Error's). */
export function nameErrorClass(cls: { readonly prototype: Error }, name: string): void {
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
}
