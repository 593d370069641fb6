/**
 * Traffic through the upstream device while the downstream device's backpressure symbols arrive
 * over the link (test/support/voq-link.ts): VoQ Backpressure §4.3 b–e and §2.3 end to end.
 * Destination ID d is downstream port d; with the default decoder reverse map and two staging
 * queues, even ports share queue 0 and odd ports queue 1 (§2.3 "traffic for several ports are
 * staged in a common queue").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

function drain(l: VoqLink): (number | string)[] {
  const ids: (number | string)[] = [];
  for (let t = l.opportunity(); t !== undefined; t = l.opportunity()) ids.push(t.packetId);
  return ids;
}
function queueChanges(l: VoqLink): string[] {
  const lines = l.rxOutputs.flatMap((o) => (o.kind === 'blocked' || o.kind === 'unblocked' ? [`${o.kind} ${o.vc === null ? '' : `vc${o.vc} `}q${o.queue}`] : []));
  l.rxOutputs.length = 0;
  return lines;
}

test('VoQ Backpressure §4.3 e (round trip): a co-mingled queue blocks when any of its ports is congested and unblocks only when all are clear', () => {
  const cases: readonly VoqLinkConfig[] = [{ ports: 12, queues: 2 }, { format: 'part12-rev4.1', groupSize: 2, ports: 12, queues: 2 }];
  for (const c of cases) {
    const l = new VoqLink(c);
    for (const [d, id] of [[0, 'a0'], [2, 'b2'], [1, 'c1'], [4, 'd4'], [3, 'e3']] as const) l.stage(d, id);
    l.congest(0);
    l.flush();
    assert.deepEqual(queueChanges(l), ['blocked q0']);
    assert.deepEqual(drain(l), ['c1', 'e3'], 'ports 2 and 4 are clear but share the queue of congested port 0');
    l.congest(2);
    l.flush();
    l.clear(0);
    l.flush();
    assert.deepEqual(queueChanges(l), [], 'port 2 still congested: the queue stays shut');
    assert.equal(l.opportunity(), undefined);
    l.clear(2);
    l.flush();
    assert.deepEqual(queueChanges(l), ['unblocked q0']);
    // "Co-mingled traffic may only be committed to the link if all ports represented by the traffic are not congested."
    assert.deepEqual(drain(l), ['a0', 'b2', 'd4']);
  }
});

test('VoQ Backpressure §4.3 e, §3.2 (round trip): with VC linking a co-mingled queue of one VC blocks alone', () => {
  const l = new VoqLink({ ports: 12, queues: 2, linking: true, vcs: 1 });
  l.stage(0, 'vc0-p0', 0);
  l.stage(2, 'vc1-p2', 1);
  l.stage(4, 'vc0-p4', 0);
  l.congest(2, 1);
  l.flush();
  assert.deepEqual(queueChanges(l), ['blocked vc1 q0']);
  assert.deepEqual(drain(l), ['vc0-p0', 'vc0-p4']);
  l.clear(2, 1);
  l.flush();
  assert.deepEqual(drain(l), ['vc1-p2']);
});

test('VoQ Backpressure §4.3 b (round trip): traffic for a port the downstream device reports congested is not committed, other traffic passes', () => {
  const l = new VoqLink({ ports: 192, queues: 192 });
  l.stage(191, 'to-191');
  l.stage(186, 'to-186');
  l.congest(191);
  l.flush();
  assert.deepEqual(drain(l), ['to-186']);
  assert.deepEqual(l.rx.staged(0, 191), ['to-191']);
  l.clear(191);
  l.flush();
  assert.deepEqual(drain(l), ['to-191']);
});

test('VoQ Backpressure §4.3 c, d (round trip): no reordering within a port\'s traffic across congestion on and off', () => {
  const l = new VoqLink({ ports: 6, queues: 2 });
  let n = 0;
  const stageRound = (): void => { for (let d = 0; d < 6; d++) l.stage(d, `${d}.${n++}`); };
  stageRound();
  l.congest(1);
  l.flush();
  stageRound();
  assert.deepEqual(drain(l), ['0.0', '2.2', '4.4', '0.6', '2.8', '4.10'], 'queue 1 (ports 1, 3, 5) is segregated');
  stageRound();
  l.congest(0);
  l.clear(1);
  l.flush();
  stageRound();
  // Segregated traffic "re-introduced to the data stream with the same ordering requirements that existed when it was segregated".
  assert.deepEqual(drain(l), ['1.1', '3.3', '5.5', '1.7', '3.9', '5.11', '1.13', '3.15', '5.17', '1.19', '3.21', '5.23']);
  l.clear(0);
  l.flush();
  assert.deepEqual(drain(l), ['0.12', '2.14', '4.16', '0.18', '2.20', '4.22']);
  for (let d = 0; d < 6; d++) {
    const seq = l.transmitted.filter((t) => t.destID === d).map((t) => Number(String(t.packetId).split('.')[1]));
    assert.deepEqual(seq, [...seq].sort((a, b) => a - b), `port ${d} in order`);
  }
});
