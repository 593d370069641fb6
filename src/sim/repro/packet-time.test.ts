import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Channel } from '../fabric/channel.ts';
import type { LinkSpec } from '../fabric/types.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { CELL_BYTES, CELL_LINK, CELL_SLOT, CELL_TIME, SYMBOL_TIME } from './cell-switch.ts';
import { TREE_LINK, TREE_PACKET_BYTES } from './tree-fabric.ts';
import { TREE_PACKET_TIME } from './tree-saturation.ts';

/** The link of `spec` as the fabric builds it (channel.ts), to ask what it takes for a packet. */
function channel(spec: LinkSpec): Channel {
  return new Channel(new Scheduler(), 'probe', spec, { packets: 8 });
}

test('Part 6 §6.6.1, §6.5.2 (decision L3): a reproduction\'s cell time is the time its link takes for the packet and its delimiter, 224 000 ps for a cell', () => {
  // 20 octets (Type 9 framing with CRC and pad) + a CS48 with two special characters (8) = 28 octets at 8000 ps on 1x 1.25 Gbaud 8b/10b.
  assert.equal(CELL_BYTES, 20);
  assert.equal(CELL_TIME, 28 * 8000);
  assert.equal(CELL_TIME, channel(CELL_LINK).packetTime(CELL_BYTES));
  assert.equal(SYMBOL_TIME, channel(CELL_LINK).symbolTime);
  assert.equal(CELL_SLOT, CELL_TIME + 2 * SYMBOL_TIME);
});

test('Part 6 §6.6.1, §6.5.2 (decision L3): the tree-saturation packet time is the time its link takes for a 64-byte-payload packet and its delimiter', () => {
  assert.equal(TREE_PACKET_TIME, channel(TREE_LINK).packetTime(TREE_PACKET_BYTES));
  assert.equal(TREE_PACKET_TIME, (TREE_PACKET_BYTES + 8) * 8000);
});
