import { WireError, WireErrorCode } from '../wire/errors.ts';
import { TT_NAMES } from '../wire/header.ts';
import type { Packet } from '../wire/packet.ts';
import { codecFor, decodePacket, decodeSerialPacket } from '../wire/packet.ts';
import { decodeSymbol, symbolLength } from '../wire/symbol.ts';
import { decodeSmp } from '../wire/smp/index.ts';
import type { CodecFlags } from './main.ts';

/** The first line of the field tree: the layer and, for packets, the format and transport size. */
export function describe(value: object, f: CodecFlags): string {
  if (f.layer !== 'serial' && f.layer !== 'transport') return f.layer;
  const p = value as Packet;
  return `${f.layer} packet: Type ${p.ftype} ${codecFor(p.ftype).name}, ${TT_NAMES[p.tt] ?? 'tt reserved'}`;
}

/**
 * One decode per `--layer`, with the flags turned into codec options. This module stays free of
 * the JSON readers (zod alone costs ~100 ms to load): `decode` is called in loops by scripts.
 */
export function decodeItem(bytes: Uint8Array, f: CodecFlags): object {
  const strict = !f.lenient;
  const ackIdBits = f.link === 'cs24' ? 5 : 6;
  switch (f.layer) {
    case 'serial':
      return decodeSerialPacket(bytes, 0, bytes.length, { strict, ackIdBits });
    case 'transport':
      return decodePacket(bytes, 0, bytes.length, { strict, ackIdBits });
    case 'symbol': {
      const n = symbolLength(f.link);
      if (bytes.length !== n) {
        const code = bytes.length < n ? WireErrorCode.truncated : WireErrorCode.trailing;
        throw new WireError(code, 'symbol', Math.min(bytes.length, n), 'Part 6 §3.1', `a ${f.link.toUpperCase()} symbol is ${n} bytes, got ${bytes.length}`);
      }
      return decodeSymbol(bytes, 0, n, symbolOptions(f));
    }
    case 'smp':
      return decodeSmp(bytes, 0, bytes.length, { strict });
  }
}

export function symbolOptions(f: CodecFlags) {
  return {
    link: f.link,
    voqFormat: f.voqFormat,
    strict: !f.lenient,
    ...(f.voqGroupSize === undefined ? {} : { part12GroupSize: f.voqGroupSize }),
  } as const;
}
