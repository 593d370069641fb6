/**
 * Issue 16: each process of the path killed (SIGKILL) in the middle of a `riodp send`, then
 * started again. Nothing is lost silently: the transfer fails at both ends that still run, with a
 * message, within the stated bound; no partial file takes the file's name; and once the process
 * is back a new transfer succeeds and no part file is left. Figures are printed (`# fault …`) for docs/fabric-faults.md.
 *
 * The bound: a killed end point is found by the port check (decision FF4: its peer silent for
 * `api.peerCheckMs`, 1 s, then its switch port read as Port Uninitialized), about 1.5 s; a killed
 * switch takes the end points' links down at once. Either is a loss on the conduit (FF5), which
 * fails the transfer at once with the reason: `peer-lost` or `link-down`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FaultFabric } from './harness.ts';
import type { Role } from './harness.ts';

const FILE_BYTES = 48 * 1024 * 1024;
const REPORTED_WITHIN_MS = 5_000;
/** The reason each end reports, by the process killed. */
const REASON: Record<Role, string> = { receiver: 'peer-lost', sender: 'peer-lost', switch: 'link-down' };

async function crashAndRecover(role: Role): Promise<void> {
  const f = await FaultFabric.start();
  try {
    const file = f.file('data.bin', FILE_BYTES);
    const recv = f.recv();
    const send = f.send(file.path);
    await f.transferring();
    await new Promise((r) => setTimeout(r, 300));
    const killedAt = Date.now();
    await f.crash(role);
    // Every end still running reports the failure.
    const reports: string[] = [];
    if (role !== 'sender') {
      const r = await f.finished(send, REPORTED_WITHIN_MS + 5_000, killedAt);
      assert.equal(r.exit.code, 1, r.output);
      assert.match(r.output, new RegExp(`^riodp send: .*PDUs (to|from) node 2 lost \\(${REASON[role]}\\)`, 'm'));
      assert.ok(r.ms <= REPORTED_WITHIN_MS, `the sender was told after ${r.ms} ms`);
      reports.push(`sender told in ${r.ms} ms`);
    }
    if (role !== 'receiver') {
      const r = await f.finished(recv, REPORTED_WITHIN_MS + 5_000, killedAt);
      assert.notEqual(r.exit.code, 0, r.output);
      assert.match(r.output, /data\.bin/);
      assert.match(r.output, new RegExp(`lost.*PDUs from node 1 lost \\(${REASON[role]}\\)`));
      assert.ok(r.ms <= REPORTED_WITHIN_MS, `the receiver was told after ${r.ms} ms`);
      reports.push(`receiver told in ${r.ms} ms`);
    } else {
      await f.sup.waitExit(recv, 10_000, 'recv to end with its end point');
    }
    assert.equal(existsSync(join(f.out, 'data.bin')), false, 'no partial file under the name');
    // Recovery: the process again, and a new transfer.
    const restartAt = Date.now();
    const linkFrom = { sender: f.lines('sender'), receiver: f.lines('receiver') };
    await f.restart(role);
    if (role === 'switch') {
      await Promise.all([f.linkUpAgain('sender', linkFrom.sender, 15_000), f.linkUpAgain('receiver', linkFrom.receiver, 15_000)]);
    }
    const upMs = Date.now() - restartAt;
    const recv2 = f.recv();
    const t2 = Date.now();
    const r2 = await f.finished(f.send(file.path), 60_000, t2);
    assert.equal(r2.exit.code, 0, `${r2.output}\n${f.log.slice(-30).join('\n')}`);
    await f.sup.waitExit(recv2, 10_000, 'the second recv');
    // The killed receiver's part file is cleared up by the next recv (its pid is gone); a failed
    // transfer removes its own.
    assert.deepEqual(f.received(), ['data.bin']);
    assert.equal(f.sha256Of(join(f.out, 'data.bin')), file.sha256);
    console.log(`# fault ${role} killed: ${reports.join(', ')}; links up ${upMs} ms after the restart; a new transfer in ${r2.ms} ms`);
  } finally {
    await f.stop();
  }
}

for (const role of ['receiver', 'sender', 'switch'] as const) {
  test(`issue 16 "Every PDU is either delivered intact or its loss is reported … at once, with the reason" (decisions FF4, FF5): the ${role} killed mid-transfer is reported within ${REPORTED_WITHIN_MS / 1000} s as ${REASON[role]}, then restarted`, async () => {
    await crashAndRecover(role);
  });
}
