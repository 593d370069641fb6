/**
 * Issue 16 "A short stall loses data": each process of the path stopped (SIGSTOP/SIGCONT) for a
 * few seconds in the middle of a `riodp send`; the file arrives whole (SHA-256 checked by the
 * receiver and compared here) and the transfer takes about the stall longer. Figures are printed
 * (`# fault …`) for docs/fabric-faults.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FaultFabric } from './harness.ts';
import type { Role } from './harness.ts';

const FILE_BYTES = 48 * 1024 * 1024;

async function transferWithStall(role: Role | null, stallMs: number): Promise<{ ms: number }> {
  const f = await FaultFabric.start();
  try {
    const file = f.file('data.bin', FILE_BYTES);
    const recv = f.recv();
    const t0 = Date.now();
    const send = f.send(file.path);
    await f.transferring();
    if (role !== null) {
      await new Promise((r) => setTimeout(r, 300));
      await f.stall(role, stallMs);
    }
    const r = await f.finished(send, 60_000 + stallMs, t0);
    assert.equal(r.exit.code, 0, `send failed:\n${r.output}\n${f.log.slice(-40).join('\n')}`);
    assert.match(r.output, /: ok \(/);
    await f.sup.waitExit(recv, 10_000, 'recv to end');
    assert.equal(f.sha256Of(join(f.out, 'data.bin')), file.sha256);
    assert.deepEqual(f.received(), ['data.bin'], 'nothing else left in the receive folder');
    console.log(`# fault ${role ?? 'none'} stopped ${role === null ? 0 : stallMs} ms: ${FILE_BYTES} bytes in ${r.ms} ms`);
    return { ms: r.ms };
  } finally {
    await f.stop();
  }
}

test('issue 16: a transfer without a fault (the reference time)', async () => {
  await transferWithStall(null, 0);
});

for (const [role, ms] of [['switch', 2_000], ['switch', 5_000], ['receiver', 4_000], ['sender', 5_000], ['receiver', 1_000]] as const) {
  test(`issue 16 "a stall of a few seconds in any process on the path delays delivery and loses nothing": the ${role} stopped ${ms} ms mid-transfer`, async () => {
    await transferWithStall(role, ms);
  });
}
