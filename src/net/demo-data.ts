/**
 * The files `npm run demo:fabric` moves: bytes of a seeded generator, so that a run can be
 * repeated byte for byte (issue 8 §4 "move a 10 MB file"), and their SHA-256.
 *
 * The generator is the AES-256-CTR keystream under the key SHA-256("riodp-demo:" + seed) with a
 * zero counter: seeded, uniform, and produced by OpenSSL at memory speed, where a JS generator
 * would take most of a second per 10 MB on this machine.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;

function keystream(seed: number): (n: number) => Buffer {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError('seed must be a non-negative integer');
  const key = createHash('sha256').update(`riodp-demo:${seed}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return (n) => cipher.update(Buffer.alloc(n));
}

/** The first `size` bytes of the generator for `seed`. */
export function seededBytes(size: number, seed: number): Buffer {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer');
  return keystream(seed)(size);
}

/** Writes the first `size` bytes of the generator for `seed` to `path`; resolves with their SHA-256 (hex). */
export async function writeSeededFile(path: string, size: number, seed: number): Promise<string> {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer');
  const next = keystream(seed);
  const hash = createHash('sha256');
  const fh = await open(path, 'w');
  try {
    for (let left = size; left > 0; left -= CHUNK) {
      const b = next(Math.min(CHUNK, left));
      hash.update(b);
      await fh.write(b);
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

/** SHA-256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A size as people write it: `10MB` (10^6), `512KiB` (2^10), `1000`; null when it is not one. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(B|kB|KB|KiB|MB|MiB|GB|GiB)?$/.exec(text.trim());
  if (m === null) return null;
  const unit = m[2] ?? 'B';
  const scale = { B: 1, kB: 1e3, KB: 1e3, KiB: 1024, MB: 1e6, MiB: 1 << 20, GB: 1e9, GiB: 1 << 30 }[unit] ?? 1;
  const n = Math.round(Number(m[1]) * scale);
  return Number.isSafeInteger(n) ? n : null;
}
