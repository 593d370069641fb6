import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { receiveFile, sendFile } from './api-file.ts';
import type { StreamLoss } from './api-types.ts';
import { FakeConduit, carrying, fakeSender, inDir, resultOf } from '../../test/support/fake-conduit.ts';
import { until } from '../../test/support/net-endpoint.ts';

const rxLoss: StreamLoss = { at: 0, stream: { remote: 1, direction: 'rx', streamID: 3 }, reason: 'reassembly', pdus: 1, detail: 'PDU aborted by its sender after 512 bytes (Part 10 §4.2)' };

test('issue 16 item 2 (decision FF5) "file transfers that … fail fast": a loss on the receive side gives the receiver up at once: status lost with the reason, answered to the sender, conduit closed, no part left', async () => {
  await inDir(async (dir) => {
    const data = new Uint8Array(200_000);
    const c = carrying('gap.bin', data.subarray(0, 65536), { hang: true }, data.length);
    const receiving = receiveFile(c, dir);
    await until(() => c.reads >= 3, 3000, 'the wait for data');
    const t0 = Date.now();
    c.lose(rxLoss);
    const r = await receiving;
    assert.ok(Date.now() - t0 < 2500, `reported in ${Date.now() - t0} ms`);
    assert.equal(r.status, 'lost');
    assert.equal(r.text, 'PDUs from node 1 lost (reassembly): PDU aborted by its sender after 512 bytes (Part 10 §4.2)');
    assert.equal(resultOf(c), 'lost');
    assert.equal(c.closed, true);
    assert.deepEqual(await readdir(dir), []);
  });
});

test('issue 16 item 2 (decision FF5): a loss on the transmit side alone (the receiver\'s result may be lost) does not give the receiver up; it ends as the data says', async () => {
  await inDir(async (dir) => {
    const data = Uint8Array.from({ length: 70_000 }, (_, i) => i & 0xff);
    const c = carrying('whole.bin', data, {
      beforeRead: (n) => {
        if (n === 1) c.lose({ ...rxLoss, stream: { remote: 1, direction: 'tx', streamID: 2 }, reason: 'send-failed', pdus: null });
      },
    });
    const r = await receiveFile(c, dir);
    assert.equal(r.status, 'ok');
    assert.deepEqual(await readdir(dir), ['whole.bin']);
  });
});

test('issue 16 item 2 (decision FF5) "file transfers that … fail fast with a clear message": a sender held by flow control gives up at once on a loss (link down, peer lost), naming the node and reason', async () => {
  await inDir(async (dir) => {
    const file = join(dir, 'src.bin');
    await writeFile(file, new Uint8Array(1_000_000));
    for (const reason of ['link-down', 'peer-lost'] as const) {
      const c = new FakeConduit([], { hang: true, blockSendsAfter: 3 });
      const sending = sendFile(fakeSender(c), 2, file);
      await until(() => c.sent.length === 3, 3000, 'three PDUs sent');
      const t0 = Date.now();
      c.lose({ at: 0, stream: { remote: 2, direction: 'tx', streamID: 2 }, reason, pdus: null, detail: 'what was in flight is lost' });
      await assert.rejects(sending, new RegExp(`^Error: PDUs to node 2 lost \\(${reason}\\): what was in flight is lost$`));
      assert.ok(Date.now() - t0 < 2500, `${reason}: reported in ${Date.now() - t0} ms`);
      assert.equal(c.closed, true, 'the conduit is closed');
    }
  });
});

test('issue 16 item 2 (decision FF5): a sender waiting for the result after its last PDU gives up at once on a loss, not after resultTimeoutMs', async () => {
  await inDir(async (dir) => {
    const file = join(dir, 'small.bin');
    await writeFile(file, new Uint8Array(1000));
    const c = new FakeConduit([], { hang: true });
    const sending = sendFile(fakeSender(c), 2, file, { resultTimeoutMs: 60_000 });
    await until(() => c.sent.length === 2, 3000, 'header and data sent');
    c.lose({ at: 0, stream: { remote: 2, direction: 'rx', streamID: 3 }, reason: 'peer-restart', pdus: null, detail: 'the peer no longer knows the stream' });
    await assert.rejects(sending, /^Error: PDUs from node 2 lost \(peer-restart\)/);
  });
});

test('issue 16 item 2 (decision FF5): a loss that closed the stream between two sends is what the sender reports, not the closed stream its next send finds', async () => {
  await inDir(async (dir) => {
    const file = join(dir, 'src.bin');
    await writeFile(file, new Uint8Array(1_000_000));
    const lost: StreamLoss = { at: 0, stream: { remote: 2, direction: 'tx', streamID: 2 }, reason: 'peer-lost', pdus: null, detail: "the switch reports the peer's link down" };
    const c: FakeConduit = new FakeConduit([], {
      hang: true,
      closeOnLoss: true,
      onSend: (n) => {
        if (n === 3) c.lose(lost);
      },
    });
    await assert.rejects(sendFile(fakeSender(c), 2, file), /^Error: PDUs to node 2 lost \(peer-lost\): the switch reports the peer's link down$/);
  });
});
