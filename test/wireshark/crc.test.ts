/**
 * Bad CRCs in the Wireshark dissector, with the real tshark: random packets and symbols of every
 * kind with one or two bytes flipped, as a bad link delivers them. Where riodp's decoder reports a
 * CRC error the dissector raises riodp.expert.crc; where riodp finds the record malformed otherwise,
 * riodp.expert.malformed; and never on a record riodp decodes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND, corrupted, cs24Arb, cs48Arb, cs64SymbolArb, draw, record, serialPacketArb } from './records.ts';
import { run } from './run.ts';

const PER_KIND = 150;
const FTYPES = [7, 8, 9, 10, 11, 13];

const records = [
  ...FTYPES.flatMap((ftype) => draw(serialPacketArb(ftype, 6), PER_KIND, 400 + ftype).map((b) => record(KIND.packet, b))),
  ...FTYPES.flatMap((ftype) => draw(serialPacketArb(ftype, 5), PER_KIND / 5, 420 + ftype).map((b) => record(KIND.packetCs24, b))),
  ...draw(cs24Arb, PER_KIND, 440).map((b) => record(KIND.cs24, b)),
  ...draw(cs48Arb, PER_KIND, 441).map((b) => record(KIND.cs48, b)),
  ...draw(cs64SymbolArb, PER_KIND, 442).map((b) => record(KIND.cs64, b)),
];
const result = run('corrupted', corrupted(records, 443));
result.catch(() => undefined);

test(`Part 6 §2.4.1, §3.6.1, §3.6.3, §3.6.5: ${records.length} packets and symbols with flipped bytes get riodp.expert.crc exactly where riodp reports a CRC-16, early CRC, CRC-5, CRC-13 or CRC-24 error`, async () => {
  const r = await result;
  assert.equal(r.bad, 0, `${r.bad} of ${r.refs.length} records disagree:\n  ${r.mismatches.join('\n  ')}`);
  const crc = r.refs.filter((ref) => ref.error?.code === 'crc');
  assert.ok(crc.length > 0.9 * records.length, `${crc.length} CRC errors`);
  const fields = new Set(crc.map((ref) => `${String(ref.json['kindName'])} ${ref.error?.field ?? ''}`));
  for (const f of ['packet crc', 'packet earlyCrc', 'packetCs24 crc', 'cs24 crc', 'cs48 crc', 'cs64 crc']) assert.ok(fields.has(f), f);
});
