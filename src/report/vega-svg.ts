import { parse, resetSVGDefIds, View } from 'vega';
import type { LoggerInterface } from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';

/**
 * vega-lite → vega → SVG string, entirely in Node (issue 7 §5: "charts rendered to SVG in Node
 * with vega-lite"). The headless SVG renderer needs neither a DOM nor `canvas`: without canvas,
 * vega estimates text widths from the font size, which only shifts labels by a few pixels.
 */

export interface RenderedSvg {
  readonly svg: string;
  /** Whatever vega-lite or vega would have printed; collected so the CLI stays quiet. */
  readonly warnings: readonly string[];
}

/** Collects instead of printing: the report must add no console output of its own. */
class CollectingLogger implements LoggerInterface {
  readonly messages: string[] = [];
  private current = 2;

  level(): number;
  level(value: number): this;
  level(value?: number): number | this {
    if (value === undefined) return this.current;
    this.current = value;
    return this;
  }

  error(...args: readonly unknown[]): this {
    return this.record('error', args);
  }

  warn(...args: readonly unknown[]): this {
    return this.record('warn', args);
  }

  info(): this {
    return this;
  }

  debug(): this {
    return this;
  }

  private record(kind: string, args: readonly unknown[]): this {
    this.messages.push(`${kind}: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}`);
    return this;
  }
}

/**
 * Renders one chart. `idPrefix` namespaces the SVG's internal ids (clip paths, gradients) so that
 * several charts can be inlined in one page without their `url(#clip1)` references crossing over,
 * and renumbers them in order of appearance so the output does not depend on vega's global
 * counters (the same data gives the same string however many charts were rendered before).
 */
export async function renderVegaLite(spec: TopLevelSpec, idPrefix: string): Promise<RenderedSvg> {
  if (!/^[A-Za-z][\w-]*$/.test(idPrefix)) throw new RangeError(`idPrefix: ${JSON.stringify(idPrefix)} is not an XML name`);
  const logger = new CollectingLogger();
  const vegaSpec = compile(spec, { logger }).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none', logger });
  try {
    resetSVGDefIds();
    const svg = await view.toSVG();
    return { svg: namespaceIds(svg, idPrefix), warnings: logger.messages };
  } finally {
    view.finalize();
  }
}

function namespaceIds(svg: string, prefix: string): string {
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) {
    const id = m[1];
    if (id !== undefined && !ids.has(id)) ids.set(id, `${prefix}-${ids.size + 1}`);
  }
  if (ids.size === 0) return svg;
  return svg.replace(/(\sid="|url\(#|href="#)([^")]+)/g, (whole, lead: string, id: string) => {
    const renamed = ids.get(id);
    return renamed === undefined ? whole : lead + renamed;
  });
}
