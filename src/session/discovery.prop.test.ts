import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { attrPeriod } from '../wire/smp/attribute-build.ts';
import { discoverWith } from './discovery-sync.ts';
import type { DiscoveryEvent } from './discovery.ts';
import { initialiseAdvertisement } from './local-advertisement.ts';
import type { BlockPlan } from './local-advertisement.ts';
import { MAILBOX_COUNT } from './type11-mailbox.ts';
import type { Contact } from './types.ts';

const VERDICTS = new Set<DiscoveryEvent['event']>(['participant', 'not-participating', 'unreachable']);

test('Annex 2 §3.3, §5.2: whatever the registers read (any words, errors), every node gets exactly one verdict, then one done', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constant<number | undefined>(undefined), fc.nat({ max: 0xffffffff }), fc.constantFrom(0x8, 0x100, 0x0108000c, 0x0000000c, 0xffff, 0x80010000)), { minLength: 1, maxLength: 64 }),
      fc.integer({ min: 1, max: 4 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 2 }),
      (words, nodes, validation, pollLimit) => {
        let i = 0;
        const r = discoverWith(() => words[i++ % words.length], { scan: { first: 0, last: nodes - 1 }, validation, pollLimit, maxEfBlocks: 8 });
        const verdicts = r.events.filter((e) => VERDICTS.has(e.event)).map((e) => ('node' in e ? e.node : -1)).sort((a, b) => a - b);
        assert.deepEqual(verdicts, Array.from({ length: nodes }, (_, n) => n));
        assert.equal(r.events.filter((e) => e.event === 'done').length, 1);
        assert.equal(r.events.at(-1)?.event, 'done');
        assert.ok(r.counters.polls <= nodes * pollLimit);
      },
    ),
    fcParams(3000),
  );
});

/** Part 2 mailboxes 0–63: the only ones advertised (decision T2). */
const mailbox = fc.integer({ min: 0, max: MAILBOX_COUNT - 1 }).map((m): Contact => ({ conveyance: 'type11', mailbox: m }));
const stream = fc.record({ streamID: fc.integer({ min: 0, max: 0xfffe }), cos: fc.integer({ min: 0, max: 0xff }) }).map((s): Contact => ({ conveyance: 'type9', ...s }));
const periods = fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 8 }).map((us) => us.map((u) => attrPeriod('REQUEST_RETRY_PERIOD', u)));
const tagStream = fc.oneof(fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 0xff00, max: 0xfffe })).map((id): Contact => ({ conveyance: 'type9', streamID: id, cos: 0 }));

/** A plan the rules allow: blocks (one per conveyance), a Component Tag alone, or §3.3's mixed system. */
const plans = fc.oneof(
  fc.record({ blocks: fc.oneof(fc.tuple(fc.oneof(mailbox, stream)), fc.tuple(mailbox, stream), fc.tuple(stream, mailbox)), attributes: fc.tuple(periods, periods) }).map((p) => ({
    blocks: p.blocks.map((contact, i): BlockPlan => ({ contact, attributes: p.attributes[i] ?? [] })),
    tag: undefined as Contact | undefined,
  })),
  fc.oneof(mailbox, tagStream).map((tag) => ({ blocks: [] as BlockPlan[], tag })),
  fc.tuple(stream, periods, mailbox).map(([contact, attributes, tag]) => ({ blocks: [{ contact, attributes }], tag })),
);

test('Annex 2 §3.2, §3.3: what the local initialisation advertises is what discovery of the node finds, contacts and attributes', () => {
  fc.assert(
    fc.property(plans, ({ blocks, tag }) => {
      const s = buildEndpointRegisters({
        messaging: true,
        dataStreaming: { maxPdu: 4096, segSupport: 8, mtu: 64 },
        session: { blocks: blocks.map(() => ({ conveyance: 'NOT_SUPPORTED' as const })) },
      });
      s.reset();
      initialiseAdvertisement(s, tag === undefined ? { blocks } : { blocks, componentTag: tag });
      const r = discoverWith((_n, o) => s.readWord(o), { targets: [{ node: 1 }], validation: true });
      assert.equal(r.illegal.length, 0);
      const p = r.participants[0];
      assert.ok(p !== undefined);
      assert.deepEqual(p.contacts.map((c) => c.contact), [...blocks.map((b) => b.contact), ...(tag === undefined ? [] : [tag])]);
      assert.deepEqual(p.contacts.map((c) => c.attributes.map((a) => [a.id, [...a.value]])), [
        ...blocks.map((b) => (b.attributes ?? []).map((a) => [a.id, [...a.value]])),
        ...(tag === undefined ? [] : [[]]),
      ]);
      assert.ok(p.contacts.every((c) => c.initStage === 0));
    }),
    fcParams(500),
  );
});
