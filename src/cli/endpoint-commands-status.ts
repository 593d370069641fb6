import type { EndpointStatus } from '../net/api-types.ts';

/**
 * `riodp status` as text: the link, the peers, one row per stream or conduit (with its XOFF state
 * both ways), the Part 9 flows, and the counters that are not zero (grouped as `status --json`
 * nests them).
 */

function hex(n: number, digits = 4): string {
  return `0x${n.toString(16).padStart(digits, '0')}`;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => `  ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
}

/** Non-zero counters of a nested counters object, as `group.name=value`. */
function nonZero(prefix: string, v: unknown, out: string[]): void {
  if (typeof v === 'number') {
    if (v !== 0) out.push(`${prefix}=${v}`);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) nonZero(prefix === '' ? k : `${prefix}.${k}`, x, out);
}

export function formatStatus(s: EndpointStatus): string {
  const lines: string[] = [];
  const l = s.link;
  lines.push(`node ${s.nodeId} (${s.engine}): link ${l.state} to ${l.switch}, ${l.connects} connection${l.connects === 1 ? '' : 's'}`);
  const peers = s.peers.map((p) => `${p.node} (${p.contact.conveyance === 'type9' ? `type9 stream ${hex(p.contact.streamID)}` : `type11 mailbox ${p.contact.mailbox}`}${p.suspect ? ', suspect' : ''})`);
  lines.push(`peers: ${peers.length === 0 ? 'none' : peers.join(', ')}`);
  if (s.streams.length === 0) {
    lines.push('streams: none');
  } else {
    lines.push('streams:');
    const rows: string[][] = [['remote', 'protoID', 'kind', 'tx', 'tx-xoff', 'outstanding', 'rx', 'rx-xoff-sent', 'buffered', 'dropped', 'lost', 'gaps', 'state']];
    for (const st of s.streams) {
      rows.push([
        String(st.remote),
        hex(st.protoID),
        st.conduit ? 'conduit' : 'stream',
        st.tx === null ? '-' : hex(st.tx.streamID),
        st.tx === null ? '-' : st.tx.xoff ? 'XOFF' : 'XON',
        st.tx === null ? '-' : String(st.tx.outstanding),
        st.rx === null ? '-' : hex(st.rx.streamID),
        st.rx === null ? '-' : st.rx.xoffSent ? 'XOFF' : 'XON',
        st.rx === null ? '-' : String(st.rx.buffered),
        st.rx === null ? '-' : String(st.rx.dropped),
        String(st.loss.pdus),
        String(st.loss.gaps),
        st.closed ? 'closed' : 'open',
      ]);
    }
    lines.push(...table(rows));
  }
  const stopped = s.flows.filter((f) => f.state === 'xoff');
  lines.push(`Part 9 flows: ${s.flows.length} known, ${stopped.length === 0 ? 'none stopped' : `stopped: ${stopped.map((f) => `${f.destinationID}/${f.flowID} (${f.held} held)`).join(', ')}`}`);
  const counters: string[] = [];
  nonZero('', s.counters, counters);
  lines.push('counters (not zero):');
  for (let i = 0; i < counters.length; i += 4) lines.push(`  ${counters.slice(i, i + 4).join('  ')}`);
  return `${lines.join('\n')}\n`;
}
