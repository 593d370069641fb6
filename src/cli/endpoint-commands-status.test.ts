import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointStatus } from '../net/api-types.ts';
import { formatStatus } from './endpoint-commands-status.ts';

test('issue 8 §2 riodp status: link, peers, one row per stream or conduit with its XOFF state both ways and its losses (issue 16 item 2: PDUs lost, possible gaps), Part 9 flows, counters that are not zero', () => {
  const s = {
    nodeId: 1,
    engine: 'FabricEndpoint',
    link: { state: 'up', switch: '127.0.0.1:4000', connects: 1 },
    peers: [{ node: 2, contact: { conveyance: 'type9', streamID: 0xfff0, cos: 0 }, source: 'block', complete: true, suspect: false }],
    streams: [{ remote: 2, protoID: 0x101, conduit: true, tx: { streamID: 0x10, xoff: true, outstanding: 3, dataHeaderFormat: 'DATA3' }, rx: { streamID: 0x20, buffered: 0, xoffSent: false, dropped: 0 }, closed: false, loss: { pdus: 1, gaps: 2, last: null } }],
    flows: [{ destinationID: 2, flowID: '0A', state: 'xoff', held: 4 }],
    counters: { engine: { fabric: { held: 4 }, endpoint: { pulls: 0 } }, link: null, api: { pdusSent: 12 } },
  } as unknown as EndpointStatus;
  assert.equal(formatStatus(s), [
    'node 1 (FabricEndpoint): link up to 127.0.0.1:4000, 1 connection',
    'peers: 2 (type9 stream 0xfff0)',
    'streams:',
    '  remote  protoID  kind     tx      tx-xoff  outstanding  rx      rx-xoff-sent  buffered  dropped  lost  gaps  state',
    '  2       0x0101   conduit  0x0010  XOFF     3            0x0020  XON           0         0        1     2     open',
    'Part 9 flows: 1 known, stopped: 2/0A (4 held)',
    'counters (not zero):',
    '  engine.fabric.held=4  api.pdusSent=12',
    '',
  ].join('\n'));
});
