import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Readable, Writable } from 'node:stream';
import { serveSession } from './session.ts';

/** One `riodp serve` client in process: the session loop between a request stream and a response stream. */

const OPTS = { version: '0', maxLine: 1 << 20 };

test('issue 18 item 3: responses come in request order with their ids; blank and # lines are skipped; a last line without newline is answered', async () => {
  const out: string[] = [];
  const output = new Writable({ write(chunk: Buffer, _e, cb) { out.push(chunk.toString()); cb(); } });
  const input = Readable.from([Buffer.from('{"id":1,"op":"ping"}\n\n# a comment\n{"id":2,"op":"li'), Buffer.from('st"}\r\n{"id":3,"op":"list"}')]);
  await serveSession(input, output, OPTS);
  assert.deepEqual(out.join('').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { id: unknown }).id), [1, 2, 3]);
});

test('issue 18 item 3: a client that sends without reading the responses is slowed down, not buffered: reading waits while the output is full', async () => {
  const total = 20000;
  let pulled = 0;
  const input = Readable.from((function* () {
    for (let i = 0; i < total; i++) {
      pulled++;
      yield Buffer.from(`{"id":${i},"op":"decode","hex":"001a0001ffff0000deaf9903"}\n`);
    }
  })());
  const held: (() => void)[] = [];
  let answered = 0;
  let reading = false;
  const output = new Writable({
    highWaterMark: 4096,
    write(chunk: Buffer, _e, cb) {
      answered += chunk.toString().split('\n').length - 1;
      if (reading) cb();
      else held.push(cb);
    },
  });
  const done = serveSession(input, output, OPTS);
  await sleep(200);
  // The client's requests stay unread in its stream while nobody reads the answers.
  assert.ok(pulled < total / 10, `${pulled} requests read`);
  // Then the client reads: the session goes on to the end (every write completes at once, where
  // releasing the held writes a millisecond apart took 20–30 s and asserted nothing more).
  reading = true;
  for (const cb of held.splice(0)) cb();
  await done;
  assert.equal(answered, total);
});
