import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrMtu, attrOpenMessageNumber, attrProtocolName, attrVendor } from '../wire/smp/attribute-build.ts';
import { identityMatches, supportFor } from './support-match.ts';
import type { ProtocolSupport } from './types.ts';

const VDP = 0x0101;
const ETH = 0x0102;
const ACME = attrVendor({ oui: 0x00a01e });
const alpha: ProtocolSupport = { protoID: VDP, attributes: [ACME, attrProtocolName('ALPHA')] };
const bravo: ProtocolSupport = { protoID: VDP, attributes: [ACME, attrProtocolName('BRAVO')] };
const eth: ProtocolSupport = { protoID: ETH, attributes: [attrMtu(1500)] };

test('Annex 2 §6.2: "These two attributes distinguish a vendor-defined protocol" — supportFor picks the 0x0101 protocol by VENDOR and PROTOCOL_NAME', () => {
  assert.equal(supportFor([alpha, bravo, eth], VDP, [attrOpenMessageNumber(1), ACME, attrProtocolName('BRAVO')]), bravo);
  assert.equal(supportFor([alpha, bravo, eth], VDP, [ACME, attrProtocolName('ZULU')]), alpha, 'none matches: the first of the ProtoID, whose judgement refuses the values');
  assert.equal(supportFor([alpha, bravo, eth], ETH, []), eth);
  assert.equal(supportFor([alpha, bravo], ETH, []), undefined);
});

test('Annex 2 §6.2, §4.2.1: identityMatches needs the advertised VENDOR and PROTOCOL_NAME values; a REQUEST may leave them out (onlyNamed)', () => {
  assert.equal(identityMatches(alpha, [ACME, attrProtocolName('ALPHA')]), true);
  assert.equal(identityMatches(alpha, [ACME]), false);
  assert.equal(identityMatches(alpha, [ACME], true), true);
  assert.equal(identityMatches(alpha, [attrProtocolName('BRAVO')], true), false);
  assert.equal(identityMatches(eth, []), true, 'nothing advertised to compare');
  assert.equal(identityMatches({ protoID: ETH, attributes: [ACME] }, [attrVendor({ oui: 5 })]), false, 'VENDOR is compared under any protocol');
});
