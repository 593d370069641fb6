import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, TOO_LONG } from './lines.ts';
import type { LineItem } from './lines.ts';

function feed(max: number, chunks: readonly string[]): LineItem[] {
  const s = new LineSplitter(max);
  return [...chunks.flatMap((c) => s.push(Buffer.from(c))), ...s.end()];
}

test('issue 18 item 3: lines are cut at LF across chunk boundaries; CRLF loses its CR; a last line without LF is a line', () => {
  assert.deepEqual(feed(100, ['{"a":1}\n{"b"', ':2}\r\n', '\n', 'x']), ['{"a":1}', '{"b":2}', '', 'x']);
  assert.deepEqual(feed(100, ['a\nb\nc\n']), ['a', 'b', 'c']);
});

test('issue 18 item 3: a multi-byte character split between chunks is decoded whole', () => {
  const bytes = Buffer.from('"é§"\n');
  const s = new LineSplitter(100);
  const out = [...s.push(bytes.subarray(0, 2)), ...s.push(bytes.subarray(2, 4)), ...s.push(bytes.subarray(4))];
  assert.deepEqual(out, ['"é§"']);
});

test('issue 18 item 3 "a line too long is an error, not memory growth": TOO_LONG once per long line, as soon as it passes the bound; the next line is read', () => {
  assert.deepEqual(feed(4, ['abcd\n', 'abcde\n', 'ok\n']), ['abcd', TOO_LONG, 'ok']);
  // Reported at the chunk that passes the bound, before the newline comes; the rest is dropped.
  const s = new LineSplitter(4);
  assert.deepEqual(s.push(Buffer.from('ab')), []);
  assert.deepEqual(s.push(Buffer.from('cde')), [TOO_LONG]);
  for (let i = 0; i < 1000; i++) assert.deepEqual(s.push(Buffer.from('xxxxxxxxxx')), []);
  assert.deepEqual(s.push(Buffer.from('yy\nz\n')), ['z']);
  assert.deepEqual(s.end(), []);
});

test('issue 18 item 3: a too-long last line without its newline is reported once at the end of input', () => {
  assert.deepEqual(feed(3, ['ok\n', 'abcdef']), ['ok', TOO_LONG]);
});
