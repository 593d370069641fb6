/**
 * `riodp/wire`: the bit-exact codecs of the RapidIO data plane (docs/api.md). Every codec is pure
 * and offset-based (`decodeX(bytes, offset, …)` / `encodeX(value, bytes, offset)`), and a decoder
 * throws only `WireError` (its code, field, offset and clause).
 *
 * - Packets: `decodePacket`/`encodePacket` (transport layer and logical layer), with their serial
 *   framing `decodeSerialPacket`/`encodeSerialPacket` (ackID, CRC-16, pad; Part 6 §2); the
 *   per-type codecs Type 7 (flow control), 8 (maintenance), 9 (data streaming, TM), 10, 11, 13.
 * - Control symbols: CS24/CS48 (`decodeSymbol`), CS64 (`decodeSymbol64`), the VoQ backpressure
 *   stype2 field (`decodeStype2`) and its CS64 form (`decodeVoqCs64`), CRC-5/13/24.
 * - Session management (Annex 2) messages and attributes: the `smp` namespace.
 * - The software fabric's TCP link framing (`decodeFrame`, `FrameReader`) and the fast lane's
 *   frame batches (`FrameBatch`, docs/fast-lane.md).
 */
export { WireError, WireErrorCode, attempt } from './errors.ts';
export type { DecodeResult, DecodeOptions } from './errors.ts';
export * from './header.ts';
export * from './packet.ts';
export * from './serial.ts';
export * from './hex.ts';
export * from './flow-id.ts';
export * from './type7.ts';
export * from './type8.ts';
export * from './type8-build.ts';
export * from './type9.ts';
export * from './type9-types.ts';
export * from './type9-tm.ts';
export * from './type10.ts';
export * from './type11.ts';
export * from './type13.ts';
export * from './symbol-types.ts';
export * from './symbol.ts';
export * from './symbol64-types.ts';
export * from './symbol64.ts';
export * from './voq-stype2.ts';
export * from './voq-cs64.ts';
export { CRC5_POLY, CRC5_INIT, crc5 } from './crc5.ts';
export { CRC13_POLY, CRC13_INIT, crc13 } from './crc13.ts';
export { CRC24_POLY, CRC24_INIT, crc24 } from './crc24.ts';
export { CRC16_POLY, CRC16_INIT, crc16Update, crc16Packet, crc16PacketCrcs } from './crc16.ts';
export * from './frame.ts';
export * from './frame-reader.ts';
export * from './frame-batch.ts';
export * from './frame-batch-types.ts';
export type { LogicalCodec } from './codec.ts';
export type { SmpMessage } from './smp/index.ts';
export { decodeSmp, encodeSmp, smpBytes, smpLength } from './smp/index.ts';
export * as smp from './smp/index.ts';
