import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureOf, sessionFabric, toDst } from '../../../test/support/sim-session.ts';
import { COMPONENT_TAG_OFFSET, decodeComponentTag } from '../../registers/component-tag.ts';
import { STANDARD_OFFSETS } from '../../registers/standard.ts';
import { TT } from '../../wire/header.ts';
import { maintenanceReadRequest } from '../../wire/type8-build.ts';
import { SessionBystander } from '../../node/endpoint/session-bystander.ts';
import { resolveSessionFeatureConfig, sessionEndpointConfig } from '../../node/endpoint/session-config.ts';
import type { EndpointSessionConfig } from '../../node/endpoint/session.ts';
import type { SimPacket } from './types.ts';

const resolve = (c: EndpointSessionConfig, id = 1, tt = 0) => resolveSessionFeatureConfig(c, id, tt, true);

test('Annex 2 §3.5.3.4–§3.5.3.5 (decision): the session engines\' periods are given in the simulator\'s picoseconds (250 ms = 2.5e11 ps, 1 s = 1e12 ps, reads and responses 100 ms); a Type 11 response times out within the retry period', () => {
  const c = sessionEndpointConfig(resolve({}));
  assert.equal(c.session.unitsPerMicrosecond, 1_000_000);
  assert.deepEqual([c.session.retryPeriod, c.session.timeoutPeriod, c.session.xonTimeout, c.session.rtsRetry, c.session.rtsLimit], [250e9, 1e12, 1e12, 250e9, 1e12]);
  assert.deepEqual([c.discovery?.readTimeout, c.discovery?.pollPeriod], [100e9, 250e9]);
  assert.deepEqual([c.type11?.responseTimeout, c.type11?.reassemblyTimeout], [100e9, 100e9]);
  const own = sessionEndpointConfig(resolve({ readTimeout: 5_000_000, retryPeriod: 7_000_000, timeoutPeriod: 30_000_000 }));
  assert.deepEqual([own.discovery?.readTimeout, own.session.retryPeriod, own.session.timeoutPeriod], [5_000_000, 7_000_000, 30_000_000]);
  // The Type 11 response timeout keeps its 2/5 of the retry period, so a lost segment has failed before the retry.
  assert.equal(own.type11?.responseTimeout, 2_800_000);
});

test('Annex 2 §3.3, §5.2, Chapter 6 (decision): every participant advertises one block with its conveyance\'s contact and receives one vendor-defined protocol named by VENDOR and PROTOCOL_NAME', () => {
  const t11 = sessionEndpointConfig(resolve({}));
  assert.deepEqual([t11.tt, t11.nodeId, t11.conveyances, t11.advertisement], [0, 1, ['type11'], { blocks: [{ contact: { conveyance: 'type11', mailbox: 0 } }] }]);
  const [p] = t11.session.protocols;
  assert.equal(p?.protoID, 0x0101);
  assert.deepEqual(p.attributes.map((a) => [a.id, Buffer.from(a.value).toString('hex')]), [[0x00, '00000000000000'], [0x01, Buffer.from('RIODPSM').toString('hex')]]);
  assert.equal(p.acceptOpen, true);
  const t9 = sessionEndpointConfig(resolve({ conveyance: 'type9', streamID: 0xe123, cos: 4, refuse: [1] }, 1, 1));
  assert.deepEqual([t9.tt, t9.conveyances, t9.advertisement.blocks?.[0]?.contact, t9.type9?.crfSupported], [1, ['type9'], { conveyance: 'type9', streamID: 0xe123, cos: 4 }, true]);
  assert.equal(t9.session.protocols[0]?.acceptOpen, false, 'an end point in refuse answers every OPEN with REFUSE');
  assert.equal(resolve({ nonParticipants: [3] }, 3).role, 'non-participant');
  assert.equal(resolve({ nonParticipants: [3] }, 1).role, 'participant');
});

test('engine contract: session settings out of range are a RangeError naming the field', () => {
  const bad: [EndpointSessionConfig, number, RegExp][] = [
    [{ conveyance: 'type10' as never }, 0, /^RangeError: session\.conveyance must be 'type11' or 'type9'$/],
    [{ mailbox: 64 }, 0, /^RangeError: session\.mailbox must be an integer from 0 to 63$/],
    [{ conveyance: 'type9', streamID: 0x1000 }, 0, /^RangeError: session\.streamID must be an integer from 57344 to 65534$/],
    [{ protocolName: 'TOO-LONG' }, 0, /^RangeError: session\.protocolName must be 1 to 7 Latin-1 characters$/],
    [{ vendor: 0x1000000 }, 0, /^RangeError: session\.vendor must be an integer from 0 to 16777215$/],
    [{ refuse: [256] }, 0, /^RangeError: session\.refuse\[0\] must be an integer from 0 to 255$/],
    [{ nonParticipants: 'all' as never }, 0, /^RangeError: session\.nonParticipants must be a list of device IDs$/],
    [{ readTimeout: 0 }, 0, /^RangeError: session\.readTimeout must be a positive integer$/],
    [{ request: 'yes' as never }, 0, /^RangeError: session\.request must be a boolean$/],
    [{ hop: 256 }, 0, /^RangeError: session\.hop must be an integer from 0 to 255$/],
    // SessionEndpoint sends Dev8 or Dev16 packets only (Annex 2 §3.5.2.2).
    [{}, 2, /^RangeError: session: tt \(the end point's\) must be 0 or 1$/],
  ];
  for (const [c, tt, re] of bad) assert.throws(() => resolve(c, 1, tt), re);
  // Through the end point: its constructor refuses the configuration.
  assert.throws(() => sessionFabric([{ session: { mailbox: -1 } }, {}]), /session\.mailbox/);
});

test('Annex 2 §3.2, §5.3, Part 1 §4.1.10: a non-participant answers MAINTENANCE reads from registers that advertise nothing; other packets are not answered', () => {
  const b = new SessionBystander(5, 0);
  const read = (offset: number, to = 5) => b.answer(maintenanceReadRequest({ tt: TT.dev8, destinationID: to, sourceID: 1, srcTID: 3, byteOffset: offset, byteCount: 4 }));
  const tag = read(COMPONENT_TAG_OFFSET);
  assert.ok(tag.kind === 'response' && tag.ok && tag.response.targetTID === 3 && tag.response.destinationID === 1);
  // §5.3: Sess_Mgmt_Sup (bit 0) clear, "the node does not conform"; 0x6C is the second word of its double-word.
  const word = new DataView(tag.response.payload.buffer, tag.response.payload.byteOffset + 4, 4).getUint32(0);
  assert.equal(decodeComponentTag(word).sessMgmtSup, false);
  const id = read(STANDARD_OFFSETS.baseDeviceId);
  assert.ok(id.kind === 'response' && ((id.response.payload[1] ?? 0) === 5), 'the Dev8 base device ID is its own');
  assert.deepEqual(read(0, 6), { kind: 'ignored', reason: 'not for this end point' });
  assert.deepEqual(b.answer('junk'), { kind: 'ignored', reason: 'not a decoded packet' });
  assert.equal(b.answer({ ftype: 11, destinationID: 5, sourceID: 1, tt: 0 }).kind, 'ignored');
});

test('engine contract: a session packet that is not a decoded packet, or is for another node, is counted and dropped, never thrown', () => {
  const s: EndpointSessionConfig = { nonParticipants: [1] };
  const f = sessionFabric([{ traffic: [toDst(1)], session: s }, { session: s }]);
  const junk = (dst: number, wire: unknown): SimPacket => ({ id: 1000 + dst, kind: 'smp', ftype: 11, src: 7, dst, prio: 0, crf: 0, vc: 0, bytes: 24, flow: -1, createdAt: 0, wire });
  const other = maintenanceReadRequest({ tt: TT.dev8, destinationID: 9, sourceID: 7, srcTID: 0, byteOffset: 0, byteCount: 4 });
  for (const dst of [0, 1]) {
    const ep = f.eps[dst];
    assert.ok(ep !== undefined);
    assert.doesNotThrow(() => {
      ep.receive(junk(dst, 'junk'), 0);
      ep.receive(junk(dst, { ftype: 8 }), 0);
      ep.receive(junk(dst, other), 0);
    });
    assert.deepEqual([featureOf(f, dst).counters()['packetsReceived'], featureOf(f, dst).counters()['ignored']], [3, 3]);
  }
  f.collector.finish(0);
  assert.equal(f.collector.results().counts['session.ignored'], 6);
  assert.equal(featureOf(f, 0).counters()['packetsSent'], 0, 'nothing answered');
});
