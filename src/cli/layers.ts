import { WireError, WireErrorCode } from '../wire/errors.ts';
import { TT_NAMES } from '../wire/header.ts';
import type { Packet } from '../wire/packet.ts';
import { codecFor, decodePacket, decodeSerialPacket } from '../wire/packet.ts';
import { decodeSymbol, symbolLength } from '../wire/symbol.ts';
import { SYMBOL64_LENGTH, decodeSymbol64 } from '../wire/symbol64.ts';
import { decodeSmp } from '../wire/smp/index.ts';
import type { CodecFlags } from './codec-flags.ts';
import type { Link } from '../wire/symbol-types.ts';

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
      const n = f.link === 'cs64' ? SYMBOL64_LENGTH : symbolLength(f.link);
      if (bytes.length !== n) {
        const code = bytes.length < n ? WireErrorCode.truncated : WireErrorCode.trailing;
        throw new WireError(code, 'symbol', Math.min(bytes.length, n), 'Part 6 §3.1', `a ${f.link.toUpperCase()} symbol is ${n} bytes, got ${bytes.length}`);
      }
      if (f.link === 'cs64') return decodeSymbol64(bytes, 0, n, symbol64Options(f));
      return decodeSymbol(bytes, 0, n, symbolOptions(f, f.link));
    }
    case 'smp':
      return decodeSmp(bytes, 0, bytes.length, { strict });
  }
}

export function symbolOptions(f: CodecFlags, link: Link) {
  return {
    link,
    voqFormat: f.voqFormat,
    strict: !f.lenient,
    ...(f.voqGroupSize === undefined ? {} : { part12GroupSize: f.voqGroupSize }),
  } as const;
}

/**
 * A CS64 VoQ-backpressure symbol exists only in the Part 12 form (§3.2): `--voq-format` does not
 * apply, `--voq-group-size` is its RX Port Group Size.
 */
export function symbol64Options(f: CodecFlags) {
  return { strict: !f.lenient, ...(f.voqGroupSize === undefined ? {} : { part12GroupSize: f.voqGroupSize }) } as const;
}
