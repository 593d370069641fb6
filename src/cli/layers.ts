import { WireError, WireErrorCode } from '../wire/errors.ts';
import { TT_NAMES } from '../wire/header.ts';
import type { Packet } from '../wire/packet.ts';
import {
  codecFor,
  decodePacket,
  decodeSerialPacket,
  encodePacket,
  encodeSerialPacket,
  packetLength,
  serialPacketLength,
} from '../wire/packet.ts';
import { decodeSymbol, encodeSymbol, symbolLength } from '../wire/symbol.ts';
import { decodeSmp, encodeSmp, smpLength } from '../wire/smp/index.ts';
import { packetFromJson } from './json/packet.ts';
import { symbolFromJson } from './json/symbol.ts';
import { smpFromJson } from './json/smp.ts';
import type { CodecFlags } from './main.ts';

/** The first line of the field tree: the layer and, for packets, the format and transport size. */
export function describe(value: object, f: CodecFlags): string {
  if (f.layer !== 'serial' && f.layer !== 'transport') return f.layer;
  const p = value as Packet;
  return `${f.layer} packet: Type ${p.ftype} ${codecFor(p.ftype).name}, ${TT_NAMES[p.tt] ?? 'tt reserved'}`;
}

/** One decode or encode per `--layer`, with the flags turned into codec options. */
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

export function encodeItem(json: unknown, f: CodecFlags): Uint8Array {
  const ackIdBits = f.link === 'cs24' ? 5 : 6;
  switch (f.layer) {
    case 'serial': {
      const p = packetFromJson(json);
      const out = new Uint8Array(serialPacketLength(p));
      encodeSerialPacket(p, out, 0, ackIdBits);
      return out;
    }
    case 'transport': {
      const p = packetFromJson(json);
      const out = new Uint8Array(packetLength(p));
      encodePacket(p, out, 0, ackIdBits);
      return out;
    }
    case 'symbol': {
      const opts = symbolOptions(f);
      const s = symbolFromJson(json, opts);
      const out = new Uint8Array(symbolLength(f.link));
      encodeSymbol(s, out, 0, opts);
      return out;
    }
    case 'smp': {
      const m = smpFromJson(json);
      const out = new Uint8Array(smpLength(m));
      encodeSmp(m, out, 0);
      return out;
    }
  }
}

function symbolOptions(f: CodecFlags) {
  return {
    link: f.link,
    voqFormat: f.voqFormat,
    strict: !f.lenient,
    ...(f.voqGroupSize === undefined ? {} : { part12GroupSize: f.voqGroupSize }),
  } as const;
}
