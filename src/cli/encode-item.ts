import { WireError, WireErrorCode } from '../wire/errors.ts';
import { encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../wire/packet.ts';
import { encodeSymbol, symbolLength } from '../wire/symbol.ts';
import { SYMBOL64_LENGTH, encodeSymbol64 } from '../wire/symbol64.ts';
import { CLAUSE_VC_IND } from '../wire/voq-cs64.ts';
import { encodeSmp, smpLength } from '../wire/smp/index.ts';
import { packetFromJson } from './json/packet.ts';
import { symbolFromJson } from './json/symbol.ts';
import { symbol64FromJson } from './json/symbol64.ts';
import { smpFromJson } from './json/smp.ts';
import { decodeItem, symbol64Options, symbolOptions } from './layers.ts';
import type { CodecFlags } from './codec-flags.ts';

/** One encode per `--layer`: the JSON object read by the format's reader, then its codec. */
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
      // A transport-level packet ends at its last logical field: there is no pad to write it in.
      if (p.rsrvPad !== undefined) throw new WireError(WireErrorCode.invalid, 'rsrvPad', 0, 'docs/cli.md', 'the pad is serial framing: give --layer serial');
      const out = new Uint8Array(packetLength(p));
      encodePacket(p, out, 0, ackIdBits);
      return out;
    }
    case 'symbol': {
      if (f.link === 'cs64') {
        const opts = symbol64Options(f);
        const s = symbol64FromJson(json, opts);
        // A receiver ignores a reserved VC_IND "without error" (Part 12 §3.2), so decoding accepts
        // it; a transmitter has no business sending one: encoding it needs --lenient.
        if (opts.strict && s.voq?.vcIndName === 'RESERVED') {
          throw new WireError(WireErrorCode.reserved, 'voq.vcInd', 0, CLAUSE_VC_IND, `VC_IND 0b${s.voq.vcInd.toString(2).padStart(4, '0')} is reserved`);
        }
        const out = new Uint8Array(SYMBOL64_LENGTH);
        encodeSymbol64(s, out, 0);
        return out;
      }
      const opts = symbolOptions(f, f.link);
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

/**
 * `riodp encode`'s answer for one JSON item: its bytes, which without --lenient must also decode
 * strictly. Encode refuses what decode refuses (reserved bits, reserved and undefined values), for
 * every layer alike, by checking the bytes as `riodp decode` would. Throws WireError.
 */
export function encodeChecked(json: unknown, f: CodecFlags): Uint8Array {
  const bytes = encodeItem(json, f);
  if (!f.lenient) decodeItem(bytes, f);
  return bytes;
}
