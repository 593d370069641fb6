import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml } from './escape.ts';

test('issue 7 §5 "escape all user text": the five HTML metacharacters become entities', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
});

test('issue 7 §5 "escape all user text": other text, including non-ASCII and newlines, is kept as it is', () => {
  const text = 'µs · XOFF’d flows\n\ttab';
  assert.equal(escapeHtml(text), text);
});
