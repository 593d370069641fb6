import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { componentTagRegister, componentTagView, decodeComponentTag, encodeComponentTag } from './component-tag.ts';
import { decodeDsControl, decodeDsInfo, dsControlRegister, dsControlView, dsInfoView, encodeDsControl, encodeDsInfo } from './data-streaming.ts';
import { layoutEfChain } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import type { FieldChanges, FieldTable, FieldValues, RegisterView } from './fields.ts';
import { OperationsCar, decodeOperations, encodeOperations, operationsRegister, sourceOperationsView } from './operations.ts';
import { decodePeFeatures, encodePeFeatures, peFeaturesRegister, peFeaturesView } from './pe-features.ts';
import { decodePortControl, encodePortControl, portControlRegister, portControlView } from './port-control.ts';
import { advertisementView, attributeRangeView, decodeAdvertisement, decodeAttributeRange, encodeAdvertisement, encodeAttributeRange, sessionBlock } from './session-block.ts';
import { RegisterSpace } from './space.ts';
import type { RegisterSpec } from './space.ts';
import { decodeVoqPortControl, encodeVoqPortControl, voqPart12View, voqPortRegister, voqSeedView } from './voq-block.ts';

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
      fcParams(FC_RUNS_MODEL),
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
      fcParams(FC_RUNS_MODEL),
    );
  });
}

// Typed-view writes (the element's local path) hold to the same spec as strict decoding: whatever
// a view stores, strict decoding accepts, and a refused write stores nothing. Each case starts
// from a reset value strict decoding accepts.
interface ViewCase {
  readonly name: string;
  readonly fields: FieldTable;
  readonly space: RegisterSpace;
  readonly offset: number;
  update(changes: Readonly<Record<string, number | boolean | undefined>>): void;
  strict(word: number): unknown;
}

function viewCase<T extends FieldTable>(name: string, view: RegisterView<T>, specs: RegisterSpec[] | ((s: RegisterSpace) => void), offset: number, strict: (w: number) => unknown): ViewCase {
  const space = Array.isArray(specs) ? new RegisterSpace(specs) : new RegisterSpace();
  if (!Array.isArray(specs)) specs(space);
  return { name, fields: view.fields, space, offset, update: (c) => { view.update(space, offset, c as FieldChanges<T>); }, strict };
}

const withSessionBlock = (s: RegisterSpace): void => { layoutEfChain(s, [sessionBlock({ maxAttr: 4 })]); };
const viewCases: readonly ViewCase[] = [
  viewCase('Part 9 §4.2 Table 4-1 PE Features CAR', peFeaturesView, [peFeaturesRegister(0x00000001)], 0x10, (w) => decodePeFeatures(w, { strict: true })),
  viewCase('Part 10 §5.4.1 Table 5-3 Operations CAR', sourceOperationsView, [operationsRegister(OperationsCar.source, 0)], 0x18, (w) => decodeOperations(w, 'source', { strict: true })),
  viewCase('Part 10 §5.5.1 Table 5-6 DS LL Control CSR', dsControlView, [dsControlRegister(0xe0000040)], 0x48, (w) => decodeDsControl(w, { strict: true })),
  viewCase('Part 9 §4.3 Table 4-2 Port n Control CSR', portControlView, [portControlRegister(0x15c, 0, { flowControl: true, flowArb: false })], 0x15c, (w) => decodePortControl(w, { strict: true })),
  viewCase('VoQ Backpressure §5.1.2.2 Table 5-3 Port n VoQ Control CSR', voqSeedView, [voqPortRegister(0x100, 0, 'seed', { generation: true, reception: true, vc: false })], 0x10c, (w) => decodeVoqPortControl(w, 'seed', { strict: true })),
  viewCase('Part 12 §5.1.2.2 Table 5-3 Port n VoQ Control CSR', voqPart12View, [voqPortRegister(0x100, 0, 'part12-rev4.1', { generation: true, reception: true, vc: false, groupSizes: [2] })], 0x120, (w) => decodeVoqPortControl(w, 'part12-rev4.1', { strict: true })),
  viewCase('Annex 2 §5.2.3 Table 5-3 Advertisement CSR', advertisementView, withSessionBlock, 0x108, (w) => decodeAdvertisement(w, { strict: true })),
  viewCase('Annex 2 §5.2.4 Table 5-4 Attribute Range CSR', attributeRangeView, withSessionBlock, 0x10c, (w) => decodeAttributeRange(w, { strict: true })),
  viewCase('Annex 2 §5.3 Table 5-6 Component Tag CSR', componentTagView, [componentTagRegister(0)], 0x6c, (w) => decodeComponentTag(w, { strict: true })),
];

function changesArb(fields: FieldTable): fc.Arbitrary<Record<string, number | boolean | undefined>> {
  const model: Record<string, fc.Arbitrary<number | boolean>> = {};
  for (const [name, f] of Object.entries(fields)) model[name] = f.width === 1 ? fc.boolean() : fc.oneof(fc.integer({ min: 0, max: 2 ** f.width - 1 }), fc.integer({ min: 0, max: 3 }));
  return fc.record(model, { requiredKeys: [] });
}

for (const c of viewCases) {
  test(`${c.name}: typed-view writes never store a word that strict decoding rejects`, () => {
    fc.assert(
      fc.property(fc.array(changesArb(c.fields), { minLength: 1, maxLength: 3 }), (steps) => {
        c.space.reset();
        c.strict(c.space.readWord(c.offset));
        for (const changes of steps) {
          const before = c.space.readWord(c.offset);
          try {
            c.update(changes);
          } catch (e) {
            if (!(e instanceof RegisterError)) throw e;
            assert.equal(c.space.readWord(c.offset), before, 'a refused update writes nothing');
          }
          c.strict(c.space.readWord(c.offset));
        }
      }),
      fcParams(FC_RUNS_MODEL),
    );
  });
}
