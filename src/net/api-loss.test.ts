import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeLoss, engineLoss } from './api-loss.ts';
import { StreamRegistry } from './api-streams.ts';
import type { StreamHost } from './api-streams.ts';
import type { StreamCore } from './api-stream.ts';
import type { StreamLoss } from './api-types.ts';
import { DEFAULT_API } from './endpoint-config.ts';
import type { StreamInfo, StreamSettings } from '../session/types.ts';

const vsid = { sourceID: 7, destinationID: 1, cos: 0, streamID: 0x20 };

test('issue 16 item 2, Part 10 §3.2.5 (decision FF5): each reassembly outcome that loses a PDU names its stream: timeout, abort, no free context, a defect', () => {
  assert.deepEqual(engineLoss('type9', { name: 'idle-timeout', vsid, received: 512 }), {
    node: 7, streamID: 0x20, direction: 'rx', type9: true, reason: 'reassembly', detail: 'PDU discarded after 512 bytes: no segment within the reassembly timeout (Part 10 §3.2.5)',
  });
  assert.equal(engineLoss('type9', { name: 'aborted', vsid, received: 256 })?.detail, 'PDU aborted by its sender after 256 bytes (Part 10 §4.2)');
  assert.equal(engineLoss('type9', { name: 'no-context', vsid, contexts: 4 })?.streamID, 0x20);
  assert.equal(engineLoss('type9', { name: 'defective-pdu', vsid, error: 'DATA_STREAMING_PDU_LENGTH_ERROR', clause: 'Part 10 §3.2.5 reassembly rule 7' })?.detail, 'DATA_STREAMING_PDU_LENGTH_ERROR (Part 10 §3.2.5 reassembly rule 7)');
  for (const name of ['sent', 'not-for-us', 'not-data', 'invalid-input']) assert.equal(engineLoss('type9', { name, vsid }), null, name);
  assert.equal(engineLoss('session', { event: 'closed' }), null);
});

test('issue 16 item 2, Part 10 §3.2.5 rule 8 (decision FF5): segments whose start never came are one loss, told at their end segment, on the streams of the source the context key names', () => {
  const d = { name: 'defective-pdu', vsid: null, context: 'small/src9/vc0/prio0/crf0', error: 'MISSING_DATA_STREAMING_CONTEXT', clause: 'Part 10 §3.2.5 reassembly rule 8' };
  assert.equal(engineLoss('type9', { ...d, segment: 'continuation' }), null);
  assert.deepEqual(engineLoss('type9', { ...d, segment: 'end' }), {
    node: 9, streamID: null, direction: 'rx', type9: true, reason: 'reassembly', detail: 'MISSING_DATA_STREAMING_CONTEXT (Part 10 §3.2.5 reassembly rule 8): a PDU without its start segment',
  });
});

test('issue 16 item 2 (decision FF5): Type 11 messages not delivered are losses of the node\'s message streams: a failed send (transmit), a reassembly given up (receive)', () => {
  assert.deepEqual(engineLoss('type11', { name: 'failed', to: 3, mailbox: 1, reason: 'timeout' }), {
    node: 3, streamID: null, direction: 'tx', type9: false, reason: 'send-failed', detail: 'message to mailbox 1 failed: timeout (Part 6 Type 11)',
  });
  assert.equal(engineLoss('type11', { name: 'reassembly-timeout', from: 4, mailbox: 2, dropped: 96 })?.node, 4);
  assert.equal(engineLoss('type11', { name: 'stale-reassembly', from: 4, mailbox: 2, dropped: 0 }), null);
});

test('issue 16 item 2 (decision FF5): a stream closed because its peer is gone (STATUS unanswered §3.7.1, stream unknown §3.8.3, link down at the switch) is a loss; a CLOSE is not', () => {
  assert.equal(closeLoss('status-timeout')?.reason, 'peer-silent');
  assert.equal(closeLoss('stream-unknown')?.reason, 'peer-restart');
  assert.equal(closeLoss('peer-lost')?.reason, 'peer-lost');
  for (const cause of ['local', 'remote', 'conduit']) assert.equal(closeLoss(cause), null, cause);
});

const settings = (dataHeaderFormat: StreamSettings['dataHeaderFormat']): StreamSettings => ({ retryPeriod: 1, timeoutPeriod: 1, xonTimeout: 1000, dataHeaderFormat, data2Octet: 0, dataOffset: 0 });

function info(remote: number, direction: 'rx' | 'tx', streamID: number, format: StreamSettings['dataHeaderFormat'] = 'DATA3'): StreamInfo {
  return { remote, direction, streamID, protoID: 0x1234, cos: 0, attributes: [], settings: settings(format), xoff: false };
}

function registry(): { reg: StreamRegistry; told: StreamLoss[] } {
  const told: StreamLoss[] = [];
  const host: StreamHost = {
    post: () => undefined,
    setTimer: () => undefined,
    now: () => 5,
    flowChange: () => undefined,
    count: () => undefined,
    inConduit: () => false,
    holdReceive: () => undefined,
    lost: (l) => told.push(l),
  };
  const core = { sendWindow: 4 } as unknown as StreamCore;
  return { reg: new StreamRegistry(host, core, DEFAULT_API), told };
}

test('issue 16 item 2 (decision FF5) "a loss counter and event on the stream API": a loss is told to the stream\'s listeners and the end point\'s at once, counted in status(); a stream closed by a lost peer tells it before its reads end', async () => {
  const { reg, told } = registry();
  reg.session({ event: 'opened', stream: info(7, 'rx', 0x20) }, 1);
  reg.session({ event: 'opened', stream: info(7, 'rx', 0x21) }, 1);
  const [s20, s21] = reg.handles();
  assert.ok(s20 !== undefined && s21 !== undefined);
  const mine: StreamLoss[] = [];
  s20.onLoss((l) => mine.push(l));
  const t = engineLoss('type9', { name: 'aborted', vsid, received: 256 });
  assert.ok(t !== null);
  reg.report(t, 9);
  assert.deepEqual(mine, [{ at: 9, stream: { remote: 7, direction: 'rx', streamID: 0x20 }, reason: 'reassembly', pdus: 1, detail: 'PDU aborted by its sender after 256 bytes (Part 10 §4.2)' }]);
  assert.deepEqual(told, mine);
  assert.deepEqual(s20.status().loss, { pdus: 1, gaps: 0, last: mine[0] });
  assert.deepEqual(s21.status().loss, { pdus: 0, gaps: 0, last: null });
  // Rule 8 names no stream: both of node 7's DATA3 receive streams may have lost it.
  reg.report({ node: 7, streamID: null, direction: 'rx', type9: true, reason: 'reassembly', detail: 'x' }, 10);
  assert.deepEqual([s20.status().loss.gaps, s21.status().loss.gaps], [1, 1]);
  const ended: string[] = [];
  s21.onLoss((l) => ended.push(`loss ${l.reason}`));
  const reading = s21.read().then((v) => ended.push(`read ${String(v)}`));
  reg.session({ event: 'closed', stream: { remote: 7, direction: 'rx', streamID: 0x21 }, cause: 'status-timeout' }, 11);
  await reading;
  assert.deepEqual(ended, ['loss peer-silent', 'read null']);
  reg.session({ event: 'closed', stream: { remote: 7, direction: 'rx', streamID: 0x20 }, cause: 'remote' }, 12);
  assert.equal(s20.status().loss.pdus + s20.status().loss.gaps, 2, 'a CLOSE is no loss');
});

test('issue 16 item 2 (decision FF5) "link down": the end point\'s link down is a possible gap on every open side of every stream; closed ones and other conveyances\' targets are left alone', () => {
  const { reg, told } = registry();
  reg.session({ event: 'opened', stream: info(7, 'rx', 0x20) }, 1);
  reg.session({ event: 'opened', stream: info(8, 'rx', 0x30, 'DATA1') }, 1);
  reg.linkDown('the link to the switch went down', 20);
  assert.deepEqual(told.map((l) => [l.stream.remote, l.reason, l.pdus]), [[7, 'link-down', null], [8, 'link-down', null]]);
  told.length = 0;
  reg.report({ node: 8, streamID: null, direction: 'rx', type9: false, reason: 'reassembly', detail: 'y' }, 21);
  reg.report({ node: 8, streamID: null, direction: 'rx', type9: true, reason: 'reassembly', detail: 'z' }, 21);
  assert.deepEqual(told.map((l) => [l.stream.streamID, l.pdus, l.detail]), [[0x30, 1, 'y']], 'a Type 11 loss goes to the node\'s one DATA1 stream, known to be one PDU');
});
