import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import {
  attrConveyanceMailbox, attrDataHeaderFormat, attrMacAddress, attrMtu, attrOpenMessageNumber, attrPeriod, attrVendor, smpAttribute,
} from '../wire/smp/attribute-build.ts';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { checkAttributeOrder } from '../wire/smp/attribute-order.ts';
import { smpAccept, smpOpen } from '../wire/smp/open-accept-refuse.ts';
import { groupById, offerOf, offers } from './attribute-values.ts';
import { judgeOpen, planOpenAttempts, settingsFromAttributes } from './negotiate.ts';
import type { NegotiationDefaults } from './negotiate.ts';
import type { ProtocolSupport } from './types.ts';

const ETH = 0x0102;
const D: NegotiationDefaults = { retryPeriod: 250_000_000, timeoutPeriod: 1_000_000_000, xonTimeout: 1_000_000_000, unitsPerMicrosecond: 1000 };

/** Any attribute: an ID of Table 3-2 (named ones often) and value octets of the width it leaves. */
const anyAttribute: fc.Arbitrary<AttributeLike> = fc
  .oneof(
    fc.constantFrom(0x00, 0x01, 0x02, 0x78, 0x8001, 0x8002, 0x8003, 0xef00, 0xf0000000, 0xf0000001, 0xf0000002, 0xf0000003, 0xf0000004, 0xf0000005),
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x8000, max: 0xefff }),
    fc.integer({ min: 0xf0000000, max: 0xffffffff }),
  )
  .chain((id) => {
    const n = id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4;
    return fc.oneof(fc.uint8Array({ minLength: n, maxLength: n }), fc.constant(new Uint8Array(n))).map((value) => ({ id, value }));
  });

const protoIDs = fc.constantFrom(0x0101, 0x0102, 0x0200);

const anySupport = (protoID: number): fc.Arbitrary<ProtocolSupport> =>
  fc.record({
    attributes: fc.array(anyAttribute, { maxLength: 6 }),
    understood: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 3 }),
    dataHeaderFormat: fc.constantFrom(undefined, 'DATA', 'DATA1', 'DATA2', 'DATA3'),
  }).map((r) => ({
    protoID,
    attributes: r.attributes,
    understood: r.understood,
    ...(r.dataHeaderFormat !== undefined && { dataHeaderFormat: r.dataHeaderFormat }),
  }));

/** An Ethernet list in the order §3.5.3 and §7.2 allow: required, optional, then VENDOR-led vendor-specific. */
const ethAdvertisement: fc.Arbitrary<AttributeLike[]> = fc
  .record({
    mtu: fc.array(fc.integer({ min: 1, max: 0xffff }), { minLength: 1, maxLength: 3 }),
    mailboxes: fc.uniqueArray(fc.integer({ min: 0, max: 0xff }), { minLength: 1, maxLength: 3 }),
    periods: fc.array(
      fc.tuple(fc.constantFrom('REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD', 'FLOW_CONTROL_XON_TIMEOUT_PERIOD' as const), fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 2 })),
      { maxLength: 3 },
    ),
    format: fc.constantFrom(undefined, 'DATA', 'DATA1', 'DATA2'),
    vendor: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 2 }),
  })
  .map((r) => {
    const seen = new Set<string>();
    const periods = r.periods.filter(([name]) => !seen.has(name) && seen.add(name));
    return [
      ...r.mtu.map((m) => attrMtu(m)),
      ...r.mailboxes.map((m) => attrConveyanceMailbox(m)),
      attrMacAddress(Uint8Array.of(0, 0xa0, 0x1e, 1, 2, 3)),
      ...periods.flatMap(([name, values]) => values.map((us) => attrPeriod(name, us))),
      ...(r.format === undefined ? [] : [attrDataHeaderFormat(r.format)]),
      ...(r.vendor.length === 0 ? [] : [attrVendor({ oui: 0x00a01e }), ...r.vendor.map((n) => smpAttribute(0xfe000000, Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff)))]),
    ];
  });

/**
 * A protocol, its support, an OPEN's attributes (random ones, or the advertised copies with some
 * left out and some values replaced, so that many OPENs pass), and whether OPEN_MESSAGE_NUMBER leads.
 */
/** True seven times in eight. */
const mostly = fc.integer({ min: 0, max: 7 }).map((n) => n > 0);

const anyCase: fc.Arbitrary<[number, ProtocolSupport, AttributeLike[], boolean]> = fc.oneof(
  protoIDs.chain((p) => fc.tuple(fc.constant(p), anySupport(p), fc.array(anyAttribute, { maxLength: 8 }), fc.boolean())),
  ethAdvertisement.chain((adv) => {
    const support: ProtocolSupport = { protoID: ETH, attributes: adv };
    const copy = fc.array(fc.tuple(mostly, fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: anyAttribute, weight: 1 })), { minLength: adv.length, maxLength: adv.length }).map((picks) =>
      adv.flatMap((a, i) => {
        const [keep, other] = picks[i] ?? [true, null];
        if (!keep) return [];
        return other === null ? [a] : [{ id: a.id, value: other.value.length === a.value.length ? other.value : a.value }];
      }),
    );
    return fc.tuple(fc.constant(ETH), fc.constant(support), copy, mostly);
  }),
);

test('Annex 2 §3.5.3, §3.8.2, §4.2.4: judgeOpen answers any OPEN without throwing; an accepted stream has one advertised-or-acceptable value per attribute and makes a well-ordered ACCEPT', () => {
  fc.assert(
    fc.property(
      anyCase,
      ([protoID, support, attrs, numbered]) => {
        const list = numbered ? [attrOpenMessageNumber(3), ...attrs] : attrs;
        const v = judgeOpen(smpOpen({ sourceID: 1, protoID, attributes: list }), support, D);
        if (!v.ok) {
          assert.equal(typeof v.detail, 'string');
          return;
        }
        const ids = v.attributes.map((a) => a.id);
        assert.equal(new Set(ids).size, ids.length, '"all duplicate copies must be removed"');
        assert.ok(!ids.includes(ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER) && !ids.includes(ATTRIBUTE_ID.CONDUIT_STREAM));
        assert.deepEqual(v.settings, settingsFromAttributes(v.attributes, protoID, D));
        // The ACCEPT built from the verdict follows the ACCEPT rules (§3.5.3, §3.8.2, §4.2.4).
        const accept = smpAccept({ destID: 2, streamID: 1, open: smpOpen({ sourceID: 1, protoID, attributes: list }), attributes: v.attributes });
        assert.deepEqual(checkAttributeOrder(accept.attributes, protoID, 'ACCEPT'), []);
        const advertised = groupById(support.attributes);
        // A DATA_HEADER_FORMAT the OPEN did not carry is the receiver's own configured one.
        const judged = v.attributes.filter((a) => list.some((b) => b.id === a.id));
        for (const a of judged) {
          const mine = advertised.get(a.id);
          if (mine !== undefined) assert.ok(offers(offerOf(mine, protoID), a.value), `0x${a.id.toString(16)} offered`);
        }
      },
    ),
    fcParams(20_000),
  );
});

test('Annex 2 §3.8.2: every planned OPEN attempt, and the OPEN that leaves every advertised copy in place, is accepted by the advertiser', () => {
  fc.assert(
    fc.property(ethAdvertisement, fc.option(fc.bigInt({ min: 0n, max: 1n << 48n })), (adv, pick) => {
      const support: ProtocolSupport = { protoID: ETH, attributes: adv };
      const prefer = pick === null ? undefined : (): bigint => pick;
      const attempts = planOpenAttempts(adv, ETH, prefer);
      assert.ok(attempts.length === 1 || attempts.length === 2);
      for (const attempt of [...attempts, adv]) {
        const v = judgeOpen(smpOpen({ sourceID: 1, protoID: ETH, openMessageNumber: 9, attributes: attempt }), support, D);
        assert.ok(v.ok, v.ok ? '' : `${v.reason}: ${v.detail}`);
        assert.equal(v.openMessageNumber, 9);
      }
      // The last attempt uses advertised values only ("restrict itself to the values specified").
      const last = attempts[attempts.length - 1] ?? [];
      for (const a of last) assert.ok(adv.some((b) => b.id === a.id && Buffer.from(b.value).equals(a.value)));
    }),
    fcParams(10_000),
  );
});
