import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * `JSON.stringify(value, null, 2) + '\n'` written to a file piece by piece (issue 20: the results
 * of a fabric of 4096 end points passed V8's largest string, ~512 MiB, and `riodp sim` died with
 * "Invalid string length" after the run). The bytes are those of `JSON.stringify` with an indent
 * of 2: objects and arrays are walked, and each array of primitives, object of primitives or other
 * leaf is given to `JSON.stringify` itself and re-indented, so no string holds more than one such
 * piece and the output buffer (`CHUNK`).
 */

const CHUNK = 1 << 20;

type Sink = (s: string) => void;

function isLeaf(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/** Whether every value of the array or object is a primitive: `JSON.stringify` writes it whole. */
function flat(v: object): boolean {
  if (Array.isArray(v)) {
    for (const x of v) if (!isLeaf(x)) return false;
    return true;
  }
  for (const k in v) if (!isLeaf((v as Record<string, unknown>)[k])) return false;
  return true;
}

/** What JSON.stringify would write for `v`, or undefined where it leaves the member out. */
function prepared(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') return (v as { toJSON(k: string): unknown }).toJSON(key);
  return v;
}

function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function emit(v: unknown, indent: string, out: Sink): void {
  if (isLeaf(v) || flat(v as object)) {
    const s = JSON.stringify(v, null, 2);
    out(indent === '' ? s : s.replace(/\n/g, `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    out('[');
    v.forEach((x, i) => {
      out(`${i === 0 ? '' : ','}\n${inner}`);
      const p = prepared(x, String(i));
      emit(omitted(p) ? null : p, inner, out);
    });
    out(`\n${indent}]`);
    return;
  }
  let first = true;
  for (const k of Object.keys(v as object)) {
    const p = prepared((v as Record<string, unknown>)[k], k);
    if (omitted(p)) continue;
    out(`${first ? '{' : ','}\n${inner}${JSON.stringify(k)}: `);
    first = false;
    emit(p, inner, out);
  }
  out(first ? '{}' : `\n${indent}}`);
}

/** Calls `out` with the pieces of `JSON.stringify(value, null, 2) + '\n'` in order. */
export function jsonPieces(value: unknown, out: Sink): void {
  const p = prepared(value, '');
  if (omitted(p)) throw new RangeError('jsonPieces: the value has no JSON form');
  emit(p, '', out);
  out('\n');
}

/** Writes `JSON.stringify(value, null, 2) + '\n'` to `path` without building it as one string. */
export function writeJsonFile(path: string, value: unknown): void {
  const fd = openSync(path, 'w');
  try {
    let buf: string[] = [];
    let size = 0;
    jsonPieces(value, (s) => {
      buf.push(s);
      size += s.length;
      if (size >= CHUNK) {
        writeSync(fd, buf.join(''));
        buf = [];
        size = 0;
      }
    });
    if (size > 0) writeSync(fd, buf.join(''));
  } finally {
    closeSync(fd);
  }
}
