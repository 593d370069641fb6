/**
 * The page's only stylesheet, inlined (issue 7 §5: "self-contained HTML (no network)"): system
 * fonts, charts scaled down to the window, tables that scroll sideways rather than overflow.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5f6368; --rule: #d0d0d0; --pass: #176f2c; --fail: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header, main, footer { max-width: 1000px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; }
h1 { font-size: 1.7em; margin: 0 0 4px; }
h2 { font-size: 1.3em; margin: 36px 0 12px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 1.05em; margin: 24px 0 8px; }
.lede, footer, figcaption, caption, .note { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding-bottom: 6px; caption-side: top; }
th, td { border: 1px solid var(--rule); padding: 4px 10px; text-align: left; vertical-align: top; }
thead th { background: #f3f4f6; }
td.num { text-align: right; }
td.missing { color: var(--muted); }
td.pass { color: var(--pass); font-weight: 600; }
td.fail { color: var(--fail); font-weight: 600; }
figure { margin: 0 0 16px; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { margin-top: 6px; font-size: 0.93em; }
pre { background: #f6f8fa; border: 1px solid var(--rule); padding: 12px; overflow-x: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
nav ul { padding-left: 20px; margin: 4px 0; }
footer { margin-top: 40px; padding-bottom: 24px; border-top: 1px solid var(--rule); padding-top: 8px; font-size: 0.9em; }
@media print { h2 { break-after: avoid; } figure, table { break-inside: avoid; } }
`;
