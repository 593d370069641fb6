import { WireError } from '../wire/errors.ts';
import { parseHex } from '../wire/hex.ts';
import type { Packet } from '../wire/packet.ts';
import { toJsonValue } from './json/output.ts';
import { decodeItem, describe } from './layers.ts';
import { items } from './input.ts';
import { smpInside } from './smp-inside.ts';
import { formatTree } from './tree.ts';
import type { CodecFlags } from './codec-flags.ts';

/**
 * `riodp decode`: every item is decoded on its own; a bad item is reported on stderr as one line
 * (field, byte offset, clause) and the batch goes on. Exit 1 if any item was bad.
 */
export async function runDecode(args: readonly string[], flags: CodecFlags & { json: boolean; smp?: boolean }): Promise<number> {
  const smp = flags.smp === true;
  if (smp && flags.layer !== 'serial' && flags.layer !== 'transport') {
    process.stderr.write(`riodp: --smp decodes the message inside a packet: it needs --layer serial or transport, not ${flags.layer} (--layer smp decodes a message alone)\n`);
    return 2;
  }
  let bad = 0;
  // Each argument is one item, as the help says ("items to decode"): a packet written in words is one quoted argument.
  for await (const item of items(args)) {
    try {
      const bytes = parseHex(item.text);
      const packet = decodeItem(bytes, flags);
      // Annex 2 §3.3: the session management message the packet carries, as a nested field.
      const value = smp ? { ...packet, smp: smpInside(packet as Packet, !flags.lenient, flags.layer === 'serial') } : packet;
      process.stdout.write(flags.json ? `${JSON.stringify(toJsonValue(value))}\n` : `${formatTree(describe(value, flags), bytes.length, value)}\n`);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      bad++;
      reportBad(args.length > 0 ? 'argument' : 'line', item.index, e);
    }
  }
  return bad > 0 ? 1 : 0;
}

export function reportBad(where: string, index: number, e: WireError): void {
  process.stderr.write(`riodp: ${where} ${index}: ${e.message}\n`);
}
