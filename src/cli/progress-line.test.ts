import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tinyScenario } from '../../test/support/tiny-scenario.ts';
import { parseScenario } from '../sim/scenario/load.ts';
import { runScenario } from '../sim/scenario/run.ts';
import { ERASE_LINE, ProgressLine } from './progress-line.ts';
import type { ProgressStream } from './progress-line.ts';

/** A stderr stand-in that records what is written; `isTTY` as an interactive terminal has it. */
function stream(isTTY: boolean | undefined): ProgressStream & { readonly chunks: string[] } {
  const chunks: string[] = [];
  return { ...(isTTY === undefined ? {} : { isTTY }), chunks, write: (c: string) => chunks.push(c) };
}

test('issue 7 §5 riodp sim shows progress on an interactive terminal: one line rewritten in place with a carriage return, erased at the end', () => {
  const err = stream(true);
  const line = new ProgressLine(err);
  runScenario(parseScenario(tinyScenario('100us')), { progressEvery: 25_000_000, onProgress: (p) => { line.update(p); } });
  line.clear();
  assert.ok(err.chunks.length >= 3, `${err.chunks.length} writes`);
  // Every write returns the carriage and erases the line; nothing ever moves to a new line.
  for (const c of err.chunks) assert.ok(c.startsWith(ERASE_LINE), JSON.stringify(c));
  assert.ok(err.chunks.every((c) => !c.includes('\n')));
  const texts = err.chunks.slice(0, -1).map((c) => c.slice(ERASE_LINE.length));
  assert.equal(texts[0], 'riodp sim: part9 (1/2) 25%');
  assert.ok(texts.includes('riodp sim: part9 (1/2) 100%'), texts.join(' | '));
  assert.equal(texts.at(-1), 'riodp sim: off (2/2) 100%');
  // The last write is the bare erase: the summary that follows starts on a clean line.
  assert.equal(err.chunks.at(-1), ERASE_LINE);
});

test('issue 7 §5 riodp sweep shows progress on an interactive terminal: the count of points done replaces the last; an unchanged text is not rewritten', () => {
  const err = stream(true);
  const line = new ProgressLine(err);
  line.show('riodp sweep: 1/3 points');
  line.show('riodp sweep: 1/3 points');
  line.show('riodp sweep: 2/3 points');
  line.clear();
  assert.deepEqual(err.chunks, [`${ERASE_LINE}riodp sweep: 1/3 points`, `${ERASE_LINE}riodp sweep: 2/3 points`, ERASE_LINE]);
  // Erased once: a second clear, or a clear with nothing showing, writes nothing; after a clear the same text shows again.
  line.clear();
  assert.equal(err.chunks.length, 3);
  line.show('riodp sweep: 2/3 points');
  assert.equal(err.chunks.at(-1), `${ERASE_LINE}riodp sweep: 2/3 points`);
  const idle = stream(true);
  new ProgressLine(idle).clear();
  assert.deepEqual(idle.chunks, []);
});

test('issue 7 §5 "shows progress on an interactive terminal" only: a stream that is not a terminal (a pipe, a file, CI) gets nothing', () => {
  for (const isTTY of [false, undefined]) {
    const err = stream(isTTY);
    const line = new ProgressLine(err);
    line.update({ variant: 'v', index: 0, variants: 1, now: 1, end: 2 });
    line.show('riodp sweep: 1/3 points');
    line.clear();
    assert.deepEqual(err.chunks, [], `isTTY ${String(isTTY)}`);
  }
});

test('issue 20 replications: riodp sim\'s progress line names the replication running', () => {
  const err = stream(true);
  const line = new ProgressLine(err);
  runScenario(parseScenario(`${tinyScenario('100us').replace(/variants:[\s\S]*/, '')}replications: 2\n`), { progressEvery: 50_000_000, onProgress: (p) => { line.update(p); } });
  const texts = err.chunks.map((c) => c.slice(ERASE_LINE.length));
  assert.ok(texts.some((t) => / run 1\/2 50%$/.test(t)) && texts.some((t) => / run 2\/2 100%$/.test(t)), texts.join(' | '));
});
