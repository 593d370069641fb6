import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { componentTagView, decodeComponentTag, encodeComponentTag } from './component-tag.ts';
import { decodeDsControl, decodeDsInfo, dsControlView, dsInfoView, encodeDsControl, encodeDsInfo } from './data-streaming.ts';
import { RegisterError } from './errors.ts';
import type { FieldTable, FieldValues, RegisterView } from './fields.ts';
import { decodeOperations, encodeOperations, sourceOperationsView } from './operations.ts';
import { decodePeFeatures, encodePeFeatures, peFeaturesView } from './pe-features.ts';
import { decodePortControl, encodePortControl, portControlView } from './port-control.ts';
import { advertisementView, attributeRangeView, decodeAdvertisement, decodeAttributeRange, encodeAdvertisement, encodeAttributeRange } from './session-block.ts';
import { decodeVoqPortControl, encodeVoqPortControl, voqPart12View, voqSeedView } from './voq-block.ts';

interface Codec {
  readonly name: string;
  readonly fields: FieldTable;
  pack(values: Readonly<Record<string, number | boolean>>): number;
  roundTrip(word: number, strict: boolean): { readonly decoded: Readonly<Record<string, unknown>>; readonly rsrv: number; readonly reencoded: number };
}

function codec<T extends FieldTable, D extends { readonly rsrv: number }>(name: string, view: RegisterView<T>, decode: (w: number, strict: boolean) => D, encode: (v: D) => number): Codec {
  return {
    name,
    fields: view.fields,
    pack: (values) => view.pack({ ...values, rsrv: 0 } as unknown as FieldValues<T>),
    roundTrip: (w, strict) => {
      const d = decode(w, strict);
      return { decoded: d, rsrv: d.rsrv, reencoded: encode(d) };
    },
  };
}

// The typed codecs of this area; each name carries its clause.
const codecs: readonly Codec[] = [
  codec('Part 9 §4.2 Table 4-1 PE Features CAR', peFeaturesView, (w, strict) => decodePeFeatures(w, { strict }), encodePeFeatures),
  codec('Part 10 §5.4.1 Table 5-3 Operations CAR', sourceOperationsView, (w, strict) => decodeOperations(w, 'source', { strict }), (v) => encodeOperations(v, 'source')),
  codec('Part 10 §5.4.3 Table 5-5 DS Information CAR', dsInfoView, (w) => decodeDsInfo(w), encodeDsInfo),
  codec('Part 10 §5.5.1 Table 5-6 DS LL Control CSR', dsControlView, (w, strict) => decodeDsControl(w, { strict }), encodeDsControl),
  codec('Part 9 §4.3 Table 4-2 Port n Control CSR', portControlView, (w, strict) => decodePortControl(w, { strict }), encodePortControl),
  codec('VoQ Backpressure §5.1.2.2 Table 5-3 Port n VoQ Control CSR', voqSeedView, (w, strict) => decodeVoqPortControl(w, 'seed', { strict }), encodeVoqPortControl),
  codec('Part 12 §5.1.2.2 Table 5-3 Port n VoQ Control CSR', voqPart12View, (w, strict) => decodeVoqPortControl(w, 'part12-rev4.1', { strict }), encodeVoqPortControl),
  codec('Annex 2 §5.2.3 Table 5-3 Advertisement CSR', advertisementView, (w, strict) => decodeAdvertisement(w, { strict }), encodeAdvertisement),
  codec('Annex 2 §5.2.4 Table 5-4 Attribute Range CSR', attributeRangeView, (w, strict) => decodeAttributeRange(w, { strict }), encodeAttributeRange),
  codec('Annex 2 §5.3 Table 5-6 Component Tag CSR', componentTagView, (w, strict) => decodeComponentTag(w, { strict }), encodeComponentTag),
];

function valuesArb(fields: FieldTable): fc.Arbitrary<Record<string, number | boolean>> {
  const model: Record<string, fc.Arbitrary<number | boolean>> = {};
  for (const [name, f] of Object.entries(fields)) model[name] = f.width === 1 ? fc.boolean() : fc.integer({ min: 0, max: 2 ** f.width - 1 });
  return fc.record(model);
}

for (const c of codecs) {
  test(`${c.name}: encode→decode identity over all field ranges`, () => {
    fc.assert(
      fc.property(valuesArb(c.fields), (values) => {
        const word = c.pack(values);
        const back = c.roundTrip(word, false);
        for (const [name, v] of Object.entries(values)) assert.equal(back.decoded[name], v, name);
        assert.equal(back.rsrv, 0);
        assert.equal(back.reencoded, word);
      }),
      fcParams(),
    );
  });

  test(`${c.name}: any word decodes leniently and re-encodes bit for bit; strict decoding throws only RegisterError`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (word) => {
        assert.equal(c.roundTrip(word, false).reencoded, word);
        try {
          assert.equal(c.roundTrip(word, true).reencoded, word);
        } catch (e) {
          if (!(e instanceof RegisterError)) throw e;
        }
      }),
      fcParams(),
    );
  });
}
