import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { simChartPlans, sweepChartPlans } from '../../src/report/charts.ts';
import { renderSimReport, renderSweepReport } from '../../src/report/html.ts';
import { writeReport } from '../../src/report/write.ts';
import { Browser, findChromium } from './cdp.ts';
import type { CdpEvent } from './cdp.ts';
import { fixtureSimReport, fixtureSweepReport } from './fixture.ts';

/**
 * issue 7 §5: "Test the report in headless Chromium (Debian `chromium`, installed by `.ci/run`
 * when missing): it loads with no console errors and shows every chart." A missing browser is a
 * failure, not a skip, so CI cannot go green without having looked at the page.
 */

interface Figure {
  readonly heading: string | null;
  readonly svg: boolean;
  readonly label: string | null;
  readonly bboxWidth: number;
  readonly bboxHeight: number;
  readonly shownWidth: number;
  readonly shownHeight: number;
  readonly marks: number;
}

interface PageFacts {
  readonly title: string;
  readonly figures: readonly Figure[];
  readonly scripts: number;
  readonly resources: readonly string[];
}

/** Runs in the page; only DOM and SVG APIs, no page script is involved. */
const INSPECT = `(() => {
  const figures = [...document.querySelectorAll('figure')].map((f) => {
    const svg = f.querySelector('svg');
    const box = svg ? svg.getBBox() : { width: 0, height: 0 };
    const shown = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    return {
      heading: f.closest('section')?.querySelector('h3')?.id ?? null,
      svg: svg !== null,
      label: svg ? svg.getAttribute('aria-label') : null,
      bboxWidth: box.width, bboxHeight: box.height,
      shownWidth: shown.width, shownHeight: shown.height,
      marks: svg ? svg.querySelectorAll('path, rect, line, text').length : 0,
    };
  });
  return { title: document.title, figures, scripts: document.scripts.length,
           resources: performance.getEntriesByType('resource').map((e) => e.name) };
})()`;

/** Console output of any level at warning or above, uncaught exceptions and browser log errors. */
function problems(events: readonly CdpEvent[], sessionId: string): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.sessionId !== sessionId) continue;
    if (e.method === 'Runtime.consoleAPICalled' && ['error', 'warning', 'assert'].includes(String(e.params['type']))) {
      out.push(`console.${String(e.params['type'])}: ${JSON.stringify(e.params['args'])}`);
    } else if (e.method === 'Runtime.exceptionThrown') {
      out.push(`exception: ${JSON.stringify(e.params['exceptionDetails'])}`);
    } else if (e.method === 'Log.entryAdded') {
      const entry = e.params['entry'] as { level?: string; text?: string; url?: string };
      if (entry.level === 'error' || entry.level === 'warning') out.push(`log ${entry.level}: ${entry.text ?? ''} ${entry.url ?? ''}`);
    }
  }
  return out;
}

async function load(browser: Browser, url: string): Promise<{ facts: PageFacts; sessionId: string; requests: string[] }> {
  const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  for (const domain of ['Runtime', 'Log', 'Page', 'Network']) await browser.send(`${domain}.enable`, {}, sessionId);
  const loaded = browser.waitFor('Page.loadEventFired', sessionId);
  await browser.send('Page.navigate', { url }, sessionId);
  await loaded;
  // Two frames after load: layout is done and anything the page would log has been logged.
  await browser.send(
    'Runtime.evaluate',
    { expression: 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))', awaitPromise: true },
    sessionId,
  );
  const result = (await browser.send('Runtime.evaluate', { expression: INSPECT, returnByValue: true }, sessionId)) as {
    result: { value: PageFacts };
  };
  const requests = browser.events
    .filter((e) => e.sessionId === sessionId && e.method === 'Network.requestWillBeSent')
    .map((e) => String((e.params['request'] as { url?: string }).url));
  return { facts: result.result.value, sessionId, requests };
}

function checkFigures(facts: PageFacts, expected: readonly string[]): void {
  assert.deepEqual(
    facts.figures.map((f) => f.heading),
    expected,
    'one figure per chart, in the planned order',
  );
  for (const f of facts.figures) {
    assert.ok(f.svg, `${String(f.heading)}: the figure holds an inline <svg>`);
    assert.ok(f.bboxWidth > 0 && f.bboxHeight > 0, `${String(f.heading)}: the SVG draws something (getBBox ${f.bboxWidth}x${f.bboxHeight})`);
    assert.ok(f.shownWidth > 0 && f.shownHeight > 0, `${String(f.heading)}: the SVG takes up room on the page`);
    assert.ok(f.marks > 10, `${String(f.heading)}: axes, marks and labels are in the DOM`);
    assert.ok(f.label !== null && f.label.length > 20, `${String(f.heading)}: the SVG has alt text`);
  }
}

test('issue 7 §5: the report loads in headless Chromium with no console errors, no network and every chart shown', { timeout: 30_000 }, async () => {
  const binary = findChromium();
  assert.ok(
    binary !== undefined,
    'Chromium not found (looked for `chromium` and `chromium-browser` on PATH, or $CHROMIUM): install the Debian package `chromium` (.ci/run does when it is missing)',
  );
  const dir = await mkdtemp(join(tmpdir(), 'riodp-report-'));
  const browser = new Browser(binary, join(dir, 'profile'));
  // A hung browser fails the test (every pending command rejects) rather than outliving it.
  const deadline = setTimeout(() => {
    browser.kill();
  }, 25_000);
  try {
    await writeReport(join(dir, 'sim'), await renderSimReport(fixtureSimReport), { 'results.json': '{}' });
    await writeReport(join(dir, 'sweep'), await renderSweepReport(fixtureSweepReport));
    const cases = [
      { page: join(dir, 'sim', 'index.html'), title: fixtureSimReport.title, charts: simChartPlans(fixtureSimReport).plans.map((p) => p.id) },
      { page: join(dir, 'sweep', 'index.html'), title: fixtureSweepReport.title, charts: sweepChartPlans(fixtureSweepReport).plans.map((p) => p.id) },
    ];
    for (const c of cases) {
      const url = pathToFileURL(c.page).href;
      const { facts, sessionId, requests } = await load(browser, url);
      assert.equal(facts.title, c.title, 'the escaped title reads back as the original text');
      assert.deepEqual(problems(browser.events, sessionId), [], 'no console errors or warnings');
      assert.equal(facts.scripts, 0, 'the page runs no script');
      assert.deepEqual(facts.resources, [], 'the page loads no resource');
      assert.deepEqual(
        requests.filter((r) => r !== url && !r.startsWith('data:')),
        [],
        'the only request is the page itself',
      );
      checkFigures(facts, c.charts);
    }
    assert.equal(cases[0]?.charts.length, 4, 'throughput, latency, occupancy and XOFF charts');
  } finally {
    clearTimeout(deadline);
    await browser.close().catch(() => {
      browser.kill();
    });
    await rm(dir, { recursive: true, force: true });
  }
});
