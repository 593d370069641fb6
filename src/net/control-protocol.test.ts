import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, MAX_LINE, parseRequest, responseLine } from './control-protocol.ts';
import type { ControlResults } from './control-protocol.ts';

test('riodp control protocol: each op is checked (device IDs, hop 0..255, word-aligned offsets, absolute paths)', () => {
  assert.deepEqual(parseRequest('{"id":1,"op":"read-reg","to":2,"hop":0,"offset":16}'), { ok: true, request: { id: 1, op: 'read-reg', to: 2, hop: 0, offset: 16 } });
  assert.deepEqual(parseRequest('{"id":"x","op":"discover"}'), { ok: true, request: { id: 'x', op: 'discover' } });
  assert.deepEqual(parseRequest('{"id":2,"op":"send-file","to":3,"path":"/f","hop":1}'), { ok: true, request: { id: 2, op: 'send-file', to: 3, path: '/f', hop: 1 } });
  assert.deepEqual(parseRequest('{"id":3,"op":"recv","dir":"/d"}'), { ok: true, request: { id: 3, op: 'recv', dir: '/d' } });
  assert.deepEqual(parseRequest('{"id":4,"op":"read-reg","to":2,"hop":256,"offset":0}'), { ok: false, id: 4, error: 'hop must be 0..255' });
  assert.deepEqual(parseRequest('{"id":5,"op":"read-reg","to":2,"hop":0,"offset":2}'), { ok: false, id: 5, error: 'offset must be a word-aligned byte offset 0..0xFFFFFC' });
  assert.deepEqual(parseRequest('{"id":6,"op":"send-file","to":70000,"path":"/f"}'), { ok: false, id: 6, error: 'to must be a device ID 0..65535' });
  assert.deepEqual(parseRequest('[1]'), { ok: false, id: null, error: 'a request is a JSON object' });
  assert.deepEqual(parseRequest('{"id":1.5,"op":"status"}'), { ok: false, id: null, error: 'id must be an integer or a string of at most 128 characters' });
});

test('riodp control protocol: lines are split on newlines whatever the chunks; a line over MAX_LINE bytes sets overflow', () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push('{"a"'), []);
  assert.deepEqual(s.push(':1}\n\n{"b":2}\n{"c"'), ['{"a":1}', '{"b":2}']);
  assert.equal(s.overflow, false);
  s.push('x'.repeat(MAX_LINE + 1));
  assert.equal(s.overflow, true);
  assert.deepEqual(s.push('\n{}\n'), []);
});

test('riodp control protocol: a response is one JSON line; bytes are written as hex', () => {
  // No operation answers bytes today; the line writer turns any it meets into hex.
  const result = { b: Uint8Array.of(1, 0xab) } as unknown as ControlResults['read-reg'];
  assert.equal(responseLine({ id: 1, ok: true, result }), '{"id":1,"ok":true,"result":{"b":"01ab"}}\n');
});

test('riodp control protocol (issue 16 item 5): recv takes onExists (rename, refuse) and maxSize (bytes); other values are refused with the field named', () => {
  assert.deepEqual(parseRequest('{"id":1,"op":"recv","dir":"/d","onExists":"refuse","maxSize":0}'), { ok: true, request: { id: 1, op: 'recv', dir: '/d', onExists: 'refuse', maxSize: 0 } });
  assert.deepEqual(parseRequest('{"id":2,"op":"recv","dir":"/d","onExists":"rename","maxSize":9007199254740991}'), { ok: true, request: { id: 2, op: 'recv', dir: '/d', onExists: 'rename', maxSize: Number.MAX_SAFE_INTEGER } });
  assert.deepEqual(parseRequest('{"id":3,"op":"recv","dir":"/d","onExists":"overwrite"}'), { ok: false, id: 3, error: 'onExists must be one of rename, refuse' });
  assert.deepEqual(parseRequest('{"id":4,"op":"recv","dir":"/d","maxSize":-1}'), { ok: false, id: 4, error: 'maxSize must be an integer 0..9007199254740991 (bytes)' });
  assert.deepEqual(parseRequest('{"id":5,"op":"recv","dir":"/d","maxSize":"1GiB"}'), { ok: false, id: 5, error: 'maxSize must be an integer 0..9007199254740991 (bytes)' });
});
