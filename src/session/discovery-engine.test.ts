import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { EF_ID, findEfBlocks } from '../registers/ef-chain.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { attrPeriod, attrVendor } from '../wire/smp/attribute-build.ts';
import { SessionDiscovery } from './discovery.ts';
import type { DiscoveryConfig, DiscoveryEvent, DiscoveryInput, ReadOutput } from './discovery.ts';
import { discoverWith } from './discovery-sync.ts';
import type { ReadWord } from './discovery-sync.ts';
import { initialiseAdvertisement, maintenancePort, writeStage } from './local-advertisement.ts';

const POLL = 250_000_000;
const B = 0x160;
const VENDOR = attrVendor({ oui: 0x00a01e });
const TIMEOUT = attrPeriod('REQUEST_TIMEOUT_PERIOD', 400_000);

/** A Type 11 capable element with one Session Management block in its hardware reset state. */
function atReset(): RegisterSpace {
  const s = buildEndpointRegisters({ messaging: true, session: { blocks: [{ conveyance: 'NOT_SUPPORTED' }] } });
  s.reset();
  return s;
}

const T11 = (): RegisterSpace => buildEndpointRegisters({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3 }] } });

/** Drives the engine by hand: reads are answered when asked, timers fired explicitly. */
class Link {
  readonly engine: SessionDiscovery;
  now = 0;
  readonly reads: ReadOutput[] = [];
  readonly timers = new Map<string, number>();
  readonly events: DiscoveryEvent[] = [];
  readonly kinds = new Set<string>();

  constructor(config: DiscoveryConfig) {
    this.engine = new SessionDiscovery(config);
  }

  feed(input: DiscoveryInput): void {
    for (const o of this.engine.handle(input, this.now)) {
      this.kinds.add(o.kind);
      if (o.kind === 'read') this.reads.push(o);
      else if (o.kind === 'timer') {
        if (o.at === null) this.timers.delete(o.name);
        else this.timers.set(o.name, o.at);
      } else this.events.push(o.detail);
    }
  }

  answer(read: ReadWord): void {
    for (let r = this.reads.shift(); r !== undefined; r = this.reads.shift()) {
      const value = read(r.node, r.offset);
      this.feed(value === undefined ? { kind: 'read-result', tag: r.tag, error: 'no response' } : { kind: 'read-result', tag: r.tag, value });
    }
  }

  fire(name: `read:${number}` | `poll:${number}`): void {
    this.now = this.timers.get(name) ?? this.now;
    this.feed({ kind: 'timer', name });
  }

  names(): string[] {
    return this.events.map((e) => e.event);
  }
}

test('Annex 2 §3.2, §5.2.4: a node at its reset value is read again every poll period and is a participant once software initialisation is done', () => {
  const s = atReset();
  const link = new Link({ targets: [{ node: 9 }] });
  link.feed({ kind: 'start' });
  link.answer((_n, o) => s.readWord(o));
  assert.deepEqual(link.names(), [], 'Conveyance 0xF with Init_Stage 1 in progress: no verdict yet');
  assert.deepEqual([...link.timers], [['poll:9', POLL]]);
  initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 7 }, attributes: [VENDOR] }] });
  link.fire('poll:9');
  link.answer((_n, o) => s.readWord(o));
  assert.deepEqual(link.names(), ['participant', 'done']);
  const p = link.events[0];
  assert.deepEqual(p?.event === 'participant' ? [p.contact, p.attributes.length, p.complete] : [], [{ conveyance: 'type11', mailbox: 7 }, 1, true]);
  assert.equal(link.engine.counters().polls, 1);
  assert.deepEqual([...link.kinds].sort(), ['event', 'read', 'timer'], 'discovery only reads: it never writes a remote register');
});

test('Annex 2 §3.2, §5.2.4: while a remote processor\'s stage is in progress the node is polled; its stage completes the attributes', () => {
  const s = atReset();
  initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 7 }, attributes: [VENDOR], laterStages: true }] });
  let probes = 0;
  const read: ReadWord = (_n, o) => {
    if (o === 0x10 && ++probes === 2) writeStage(maintenancePort(s), B, { lockValue: 0x42, stage: 2, attributes: [TIMEOUT], last: true });
    return s.readWord(o);
  };
  const r = discoverWith(read, { targets: [{ node: 1 }] });
  assert.deepEqual(r.participants.map((p) => [p.initStage, p.complete, p.attributes.map((a) => a.name)]), [[0, true, ['VENDOR', 'REQUEST_TIMEOUT_PERIOD']]]);
  assert.deepEqual([r.elapsed, r.counters.polls], [POLL, 1]);
});

test('Annex 2 §5.2.4: a node still initialising after the poll limit is reported as it stands, its valid attributes read on the last attempt', () => {
  const s = atReset();
  initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 7 }, attributes: [VENDOR], laterStages: true }] });
  // Per attempt: PE Features, Assembly Information, two headers, three block CSRs; the last adds the attribute.
  const r = discoverWith((_n, o) => s.readWord(o), { targets: [{ node: 1 }], pollLimit: 3 });
  assert.deepEqual(r.participants.map((p) => [p.initStage, p.complete, p.attributes.length]), [[2, false, 1]]);
  assert.deepEqual([r.elapsed, r.counters.polls, r.counters.reads], [3 * POLL, 3, 4 * 7 + 2]);
  const never = discoverWith((_n, o) => atReset().readWord(o), { targets: [{ node: 1 }] });
  assert.deepEqual(never.notParticipating.map((n) => n.why), ['incomplete']);
  assert.equal(never.elapsed, 4 * POLL, 'by default four polls 250 ms apart: the 1 s of REQUEST_TIMEOUT_PERIOD');
});

test('Annex 2 §3.2: a block whose Lock_Val another processor holds is read again later; without waitForLock it is reported at once as incomplete', () => {
  const s = T11();
  maintenancePort(s).write(B + 4, 0x0042);
  const link = new Link({ targets: [{ node: 1 }] });
  link.feed({ kind: 'start' });
  link.answer((_n, o) => s.readWord(o));
  assert.deepEqual([link.names(), [...link.timers.keys()]], [[], ['poll:1']]);
  maintenancePort(s).write(B + 4, 0x0042);
  link.fire('poll:1');
  link.answer((_n, o) => s.readWord(o));
  assert.deepEqual(link.names(), ['participant', 'done']);
  maintenancePort(s).write(B + 4, 0x0043);
  const r = discoverWith((_n, o) => s.readWord(o), { targets: [{ node: 1 }], waitForLock: false });
  assert.deepEqual(r.participants.map((p) => [p.complete, p.contacts[0]?.lockVal]), [[false, 0x43]]);
  assert.equal(s.readWord(B + 4), 0x43, 'discovery left the lock alone');
});

test('Part 1 §5.3: an extended features loop ends the walk, is reported once, and the blocks before it are used', () => {
  const s = T11();
  // The session block's header (EF_PTR 0, EF_ID 0x000C) made to point back at the LP-Serial block at 0x100.
  const loop: ReadWord = (_n, o) => (o === B ? 0x0100000c : s.readWord(o));
  const r = discoverWith(loop, { targets: [{ node: 1 }] });
  assert.deepEqual(r.chain.map((c) => [c.offset, c.reason]), [[B, 'loop']]);
  assert.deepEqual(r.participants.map((p) => p.contact), [{ conveyance: 'type11', mailbox: 3 }]);
  const fresh = atReset();
  // In validation mode, with Write Enable reserved bits set: each problem is reported once over three attempts.
  const polled = discoverWith((_n, o) => (o === B ? 0x0100000c : o === B + 4 ? 0x0001ffff : fresh.readWord(o)), { targets: [{ node: 1 }], pollLimit: 2, validation: true });
  assert.deepEqual([polled.chain.length, polled.illegal.length, polled.counters.polls, polled.notParticipating[0]?.why], [1, 1, 2, 'incomplete']);
});

test('Part 1 §5.3: an illegal EF_PTR ends the list, and a list that never ends is cut at maxEfBlocks', () => {
  const s = T11();
  // LP-Serial header pointing at 0x164, not double-word aligned.
  const r = discoverWith((_n, o) => (o === 0x100 ? 0x01640001 : s.readWord(o)), { targets: [{ node: 1 }] });
  assert.deepEqual(r.chain.map((c) => [c.offset, c.reason]), [[0x100, 'pointer']]);
  assert.deepEqual(r.notParticipating.map((n) => n.why), ['no-advertisement']);
  // Every header points 8 bytes further on, EF_ID 0x0001.
  const endless: ReadWord = (_n, o) => (o === 0x10 ? 0x8 : o === 0xc ? 0x100 : o >= 0x100 && o < 0x10000 ? (((o + 8) << 16) | 1) >>> 0 : 0);
  const cut = discoverWith(endless, { targets: [{ node: 1 }], maxEfBlocks: 16 });
  assert.deepEqual(cut.chain.map((c) => c.reason), ['limit']);
  assert.equal(cut.counters.reads, 2 + 16 + 1, 'PE Features, Assembly Information, 16 headers, Component Tag');
});

test('Part 1 §5.4, Annex 2 §5.3: with PE Features bit 28 clear there is no list to walk; the Component Tag CSR is read', () => {
  const s = buildEndpointRegisters({ messaging: true, session: { componentTag: { conveyance: 'MESSAGING', mailbox: 1 } } });
  const offsets: number[] = [];
  const r = discoverWith((_n, o) => { offsets.push(o); return o === 0x10 ? s.readWord(o) & ~0x8 : s.readWord(o); }, { targets: [{ node: 1 }] });
  assert.deepEqual(offsets, [0x10, 0x6c, 0x18, 0x1c]);
  assert.equal(r.participants[0]?.source, 'component-tag');
});

test('Annex 2 §3.3: a read error or a read that throws makes the node unreachable at the offset read (reported in the order nodes end)', () => {
  const s = T11();
  const r = discoverWith((n, o) => {
    if (n === 2 && o === B + 8) return undefined;
    if (n === 3 && o === 0xc) throw new Error('port error');
    return s.readWord(o);
  }, { targets: [{ node: 2 }, { node: 3 }] });
  assert.deepEqual(r.unreachable.map((u) => [u.node, u.reason, u.error, u.offset]), [[3, 'read-error', 'port error', 0xc], [2, 'read-error', 'no response', B + 8]]);
  assert.equal(r.counters.readErrors, 2);
});

test('Annex 2 §3.3: a read with no result within readTimeout makes the node unreachable; the late result is stale and ignored', () => {
  const link = new Link({ targets: [{ node: 4 }], readTimeout: 1000 });
  link.feed({ kind: 'start' });
  const first = link.reads.shift()!;
  assert.deepEqual([first.node, first.hop, first.offset, link.timers.get(`read:${first.tag}`)], [4, 0xff, 0x10, 1000]);
  link.fire(`read:${first.tag}`);
  assert.deepEqual(link.events.map((e) => (e.event === 'unreachable' ? [e.reason, e.offset] : e.event)), [['timeout', 0x10], 'done']);
  link.feed({ kind: 'read-result', tag: first.tag, value: 0 });
  link.fire(`read:${first.tag}`);
  assert.deepEqual(link.names().slice(2), ['stale-result'], 'a stale result is reported; a stale timer is ignored');
  assert.deepEqual([link.engine.counters().readTimeouts, link.engine.counters().staleResults], [1, 1]);
});

test('Annex 2 §3.3: a read result that is not a 32-bit word is bad input: counted, and the node unreachable', () => {
  const link = new Link({ targets: [{ node: 4 }] });
  link.feed({ kind: 'start' });
  link.feed({ kind: 'read-result', tag: link.reads[0]!.tag, value: -1 });
  assert.deepEqual(link.events[0], { event: 'unreachable', node: 4, reason: 'read-error', error: 'read result -1 is not a 32-bit word', offset: 0x10 });
  assert.equal(link.engine.counters().badResults, 1);
});

test('Annex 2 §3.3 "scan management space for all remote nodes": every device ID of the range but this end point\'s own, configured targets read once', () => {
  const nodes: Record<number, RegisterSpace> = { 0: T11(), 2: T11(), 3: buildEndpointRegisters(), 4: T11() };
  const asked: number[] = [];
  const r = discoverWith((n, o) => { if (o === 0x10) asked.push(n); return nodes[n]?.readWord(o); }, { targets: [{ node: 4 }], scan: { first: 0, last: 5 }, self: 0 });
  assert.deepEqual(asked, [4, 1, 2, 3, 5]);
  assert.deepEqual(r.participants.map((p) => p.node), [4, 2]);
  assert.deepEqual(r.notParticipating.map((p) => p.node), [3]);
  assert.deepEqual(r.unreachable.map((p) => p.node), [1, 5]);
  assert.deepEqual(r.events.at(-1), { event: 'done', nodes: 5, participants: 2 });
});

test('Annex 2 §3.3: at most `parallel` nodes have a read outstanding, each with its own hop count', () => {
  const link = new Link({ scan: { first: 10, last: 19, hop: 2 }, parallel: 3 });
  link.feed({ kind: 'start' });
  assert.deepEqual(link.reads.map((r) => [r.node, r.hop, r.offset]), [[10, 2, 0x10], [11, 2, 0x10], [12, 2, 0x10]]);
  assert.equal(new Set(link.reads.map((r) => r.tag)).size, 3, 'tags are unique');
});

test('Annex 2 §3.8.3: a node may be discovered again (it may have rebooted); repeated or impossible requests are ignored and reported', () => {
  const s = T11();
  const link = new Link({ targets: [{ node: 1 }], deviceIdBits: 8 });
  link.feed({ kind: 'start' });
  link.feed({ kind: 'start' });
  link.feed({ kind: 'discover', node: 1 });
  link.feed({ kind: 'discover', node: 256 });
  assert.deepEqual(link.events.map((e) => (e.event === 'ignored' ? e.reason : e.event)), [
    'discovery already started',
    'discover: node 1 is already being read',
    'discover: node must be an integer from 0 to 255',
  ]);
  link.answer((_n, o) => s.readWord(o));
  link.feed({ kind: 'discover', node: 1, hop: 3 });
  assert.equal(link.reads[0]?.hop, 3);
  link.answer((_n, o) => s.readWord(o));
  assert.deepEqual(link.names().filter((n) => n !== 'ignored'), ['participant', 'done', 'participant', 'done']);
  assert.equal(link.engine.counters().ignored, 3);
});

test('Annex 2 §3.3: snapshot() is plain JSON of the discovery state and counters() a copy', () => {
  const link = new Link({ targets: [{ node: 1 }, { node: 2 }], parallel: 1 });
  link.feed({ kind: 'start' });
  const snap = JSON.parse(JSON.stringify(link.engine.snapshot())) as Record<string, unknown>;
  assert.deepEqual(snap['active'], [{ node: 1, attempt: 0, tag: 0, offset: 0x10, reads: 1 }]);
  assert.deepEqual(snap['queue'], [{ node: 2, hop: 0xff, attempt: 0 }]);
  assert.deepEqual(snap['timers'], [{ name: 'read:0', at: 100_000_000 }]);
  const c = link.engine.counters();
  c.reads = 99;
  assert.equal(link.engine.counters().reads, 1);
});

test('Annex 2 §3.3: an impossible configuration is refused with a RangeError naming the field', () => {
  assert.throws(() => new SessionDiscovery({ targets: [{ node: 0x10000 }] }), /targets\[0\]\.node must be an integer from 0 to 65535/);
  assert.throws(() => new SessionDiscovery({ scan: { first: 5, last: 4 } }), /scan\.last must be at least scan\.first/);
  assert.throws(() => new SessionDiscovery({ conveyances: [] }), /conveyances must list/);
  assert.throws(() => new SessionDiscovery({ conveyances: ['type8' as 'type9'] }), /conveyances\[0\] must be 'type11' or 'type9'/);
  assert.throws(() => new SessionDiscovery({ readTimeout: 0 }), /readTimeout must be a positive integer/);
  assert.throws(() => new SessionDiscovery({ tagCos: 256 }), /tagCos must be an integer from 0 to 255/);
  assert.throws(() => new SessionDiscovery({ targets: [{ node: 1, hop: 256 }] }), /targets\[0\]\.hop must be an integer from 0 to 255/);
});

test('Annex 2 §5.2: every session block is found by walking the chain to each EF_ID 0x000C', () => {
  const s = buildEndpointRegisters({ messaging: true, dataStreaming: { maxPdu: 4096, segSupport: 8, mtu: 64 }, voq: {}, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 1 }, { conveyance: 'DATA_STREAMING', cos: 2, streamId: 3 }] } });
  const r = discoverWith((_n, o) => s.readWord(o), { targets: [{ node: 1 }] });
  assert.deepEqual(r.participants[0]?.contacts.map((c) => c.offset), findEfBlocks(s, EF_ID.sessionManagement));
});
