/**
 * VoQ backpressure end to end over a lossy link (test/support/voq-link.ts): symbols that arrive
 * with a CRC-13 error are discarded by the receiving link layer, so the upstream device's view
 * falls behind. §4.2 f (a timer) and §4.2 g (link recovery) are what bring the two views together
 * again "to avoid orphaned congestion states".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GEN_LINK, VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

const FORMATS: readonly Pick<VoqLinkConfig, 'format' | 'groupSize'>[] = [{ format: 'seed' }, { format: 'part12-rev4.1', groupSize: 3 }];

/** Port 1 congests and is heard, then clears with its all-clear lost; port 20 congests unheard. */
function loseTwoSymbols(l: VoqLink): void {
  l.congest(1);
  l.flush();
  assert.deepEqual(l.rx.congestedPorts(0), [1]);
  l.setLose(() => true);
  l.clear(1);
  l.congest(20);
  assert.equal(l.flush(), 2);
  assert.equal(l.lost.length, 2);
  assert.deepEqual(l.rx.congestedPorts(0), [1], 'an orphaned congestion state and a missed one');
  assert.deepEqual(l.disagreements(), ['vc0 port 1: reported 0, held 1', 'vc0 port 20: reported 1, held 0']);
  assert.equal(l.flush(), 0, 'nothing is due any more: the generator believes it was heard');
  l.setLose(() => false);
}

test('VoQ Backpressure §4.2 rule f (round trip): after lost symbols the timer refresh restores agreement', () => {
  for (const f of FORMATS) {
    const l = new VoqLink({ ...f, ports: 24, refreshPeriod: 1000 });
    loseTwoSymbols(l);
    assert.equal(l.refreshAt(), 1000);
    l.advance(1000);
    assert.ok(l.flush() >= 1);
    assert.deepEqual(l.disagreements(), [], f.format);
    assert.deepEqual(l.rx.congestedPorts(0), [20]);
    assert.ok(l.delivered.slice(-2).every((m) => m.reason === 'timer'));
  }
});

test('VoQ Backpressure §4.2 rule f (round trip): a refresh restores agreement VC by VC on a linked link', () => {
  const l = new VoqLink({ ports: 12, linking: true, vcs: 8, refreshPeriod: 500 });
  l.congest(2, 3);
  l.setLose(() => true);
  l.flush();
  l.setLose(() => false);
  assert.deepEqual(l.disagreements(), ['vc3 port 2: reported 1, held 0']);
  l.advance(500);
  l.flush();
  assert.deepEqual(l.disagreements(), []);
  assert.deepEqual(l.held(3), [2]);
});

test('VoQ Backpressure §4.2 rule g (round trip): after a link outage the recovery resend restores agreement (receiver clears at link-up)', () => {
  for (const f of FORMATS) {
    const l = new VoqLink({ ...f, ports: 24 });
    loseTwoSymbols(l);
    l.outage();
    assert.deepEqual(l.rx.congestedPorts(0), [], 'clearOnLinkUp: the orphaned state goes at link-up');
    assert.ok(l.flush() >= 1);
    assert.deepEqual(l.disagreements(), [], f.format);
    assert.deepEqual(l.rx.congestedPorts(0), [20]);
    assert.ok(l.delivered.slice(-1).every((m) => m.reason === 'link-recovery'));
  }
});

test('VoQ Backpressure §4.2 rule g (round trip): with clearOnLinkUp false the all-clear groups of the recovery resend remove the orphaned state', () => {
  for (const f of FORMATS) {
    const l = new VoqLink({ ...f, ports: 24, clearOnLinkUp: false });
    loseTwoSymbols(l);
    l.outage();
    assert.deepEqual(l.rx.congestedPorts(0), [1], 'kept through the outage');
    l.flush();
    assert.deepEqual(l.disagreements(), [], f.format);
    assert.deepEqual(l.rx.congestedPorts(0), [20]);
  }
});

test('VoQ Backpressure §4.2 rules f, g (round trip): with neither a timer nor a recovery resend a lost symbol leaves the views apart', () => {
  const l = new VoqLink({ ports: 24, resendOnLinkRecovery: false, clearOnLinkUp: false });
  loseTwoSymbols(l);
  l.outage();
  assert.equal(l.flush(), 0);
  assert.equal(l.disagreements().length, 2);
  assert.equal(l.refreshAt(), null);
});

test('VoQ Backpressure Table 5-3 bit 8, §4.2 g (round trip, regression): a port that cleared while generation was off no longer stays congested upstream once generation is back on', () => {
  for (const f of [...FORMATS, { format: 'part12-rev4.1', groupSize: 3, linking: true, vcs: 8 } as const]) {
    // Neither a timer nor a recovery resend: only the restart can correct the upstream view.
    const l = new VoqLink({ ...f, ports: 24, resendOnLinkRecovery: false, clearOnLinkUp: false });
    l.congest(3);
    l.congest(20);
    l.flush();
    assert.deepEqual(l.rx.congestedPorts(0), [3, 20]);
    l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: false } });
    l.clear(3);
    assert.equal(l.flush(), 0, '"0b0 = No VoQ symbols will be transmitted"');
    assert.deepEqual(l.rx.congestedPorts(0), [3, 20], 'the upstream device still holds port 3');
    const before = l.delivered.length;
    l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: true } });
    // Every group of every VC the link reports on: 3 groups of 10 ports (seed: 4 of 6), 9 VCs when linked.
    assert.equal(l.flush(), (f.format === 'seed' ? 4 : 3) * l.vcList().length, JSON.stringify(f));
    assert.ok(l.delivered.slice(before).every((m) => m.reason === 'restart'));
    assert.deepEqual(l.rx.congestedPorts(0), [20], JSON.stringify(f));
    assert.deepEqual(l.disagreements(), []);
  }
});
