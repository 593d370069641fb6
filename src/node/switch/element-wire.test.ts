import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, message } from '../../../test/support/switch-element.ts';
import type { SwitchOutput } from './element.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import { maintenanceReadRequest } from '../../wire/type8-build.ts';

const packetsOf = (out: readonly SwitchOutput[]): Extract<SwitchOutput, { kind: 'packet' }>[] => out.filter((o): o is Extract<SwitchOutput, { kind: 'packet' }> => o.kind === 'packet');

function pullAll(r: Rig, port: number): SwitchOutput[] {
  const out: SwitchOutput[] = [];
  for (let i = 0; i < 16; i++) {
    const o = r.run({ kind: 'pull', port });
    out.push(...o);
    if (o.some((x) => x.kind === 'idle')) break;
  }
  return out;
}

test('Part 6 §6.11 rule 3 (decision DP2): a packet forwarded unchanged leaves with the wire handle it arrived with', () => {
  const r = new Rig();
  const p = message(0, 2);
  const wire = { opaque: 1 };
  r.run({ kind: 'packet', port: 0, packet: p, octets: serialPacketLength(p), wire });
  const outs = packetsOf(pullAll(r, 2));
  assert.equal(outs.length, 1);
  const out = outs[0] as (typeof outs)[number];
  assert.equal(out.packet, p);
  assert.equal(out.wire, wire);
});

test('Part 3 §2.5 "it is decremented" (decision DP2): a maintenance request forwarded with hop_count decremented is a new packet and leaves without the wire handle', () => {
  const r = new Rig();
  const req = maintenanceReadRequest({ tt: 1, destinationID: 3, sourceID: 0, hopCount: 2, srcTID: 1, byteOffset: 0, byteCount: 4 });
  r.run({ kind: 'packet', port: 0, packet: req, octets: serialPacketLength(req), wire: { opaque: 2 } });
  const outs = packetsOf(pullAll(r, 3));
  assert.equal(outs.length, 1);
  const out = outs[0] as (typeof outs)[number];
  assert.deepEqual([out.packet.ftype, 'hopCount' in out.packet ? out.packet.hopCount : -1], [8, 1]);
  assert.equal('wire' in out, false);
});

test('Part 6 §6.11 rule 3 (decision DP2): without a wire handle the packet output is the plain { kind, port, packet } it always was', () => {
  const r = new Rig();
  const p = message(1, 2);
  r.send(1, p);
  assert.deepEqual(packetsOf(pullAll(r, 2)), [{ kind: 'packet', port: 2, packet: p }]);
});
