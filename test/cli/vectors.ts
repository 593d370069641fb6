/**
 * Input vectors for the CLI tests, built with the codecs themselves (the codec tests pin the
 * bytes against the spec figures; these tests pin what the CLI does with them). Every packet
 * and symbol here is one strict decoding accepts.
 */
import { toHex } from '../../src/wire/hex.ts';
import { encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../../src/wire/packet.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { encodeSymbol, symbolLength } from '../../src/wire/symbol.ts';
import type { SymbolFields } from '../../src/wire/symbol.ts';
import { encodeStype2 } from '../../src/wire/voq-stype2.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import { maintenanceReadRequest, maintenanceResponse, maintenanceWriteRequest } from '../../src/wire/type8-build.ts';
import type { Type9Packet } from '../../src/wire/type9.ts';
import { tmMessage, tmOperand, tmOpName } from '../../src/wire/type9-tm.ts';
import type { Type10Packet } from '../../src/wire/type10.ts';
import { messageSegment } from '../../src/wire/type11.ts';
import { messageResponse, response } from '../../src/wire/type13.ts';

export function serialHex(p: Packet, ackIdBits: 5 | 6 = 6): string {
  const out = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, out, 0, ackIdBits);
  return toHex(out);
}

export function transportHex(p: Packet, ackIdBits: 5 | 6 = 6): string {
  const out = new Uint8Array(packetLength(p));
  encodePacket(p, out, 0, ackIdBits);
  return toHex(out);
}

export function symbolHex(f: SymbolFields): string {
  const out = new Uint8Array(symbolLength(f.link));
  encodeSymbol(f, out, 0);
  return toHex(out);
}

/** 0, 1, 2, … n-1 as bytes: payloads whose every byte is told apart from its neighbours. */
export function counting(n: number, from = 0): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);
}

/**
 * DECISIONS §1's third-party golden packet: a Dev16 doorbell from 0xFFFF to 0x0001, info
 * 0xDEAF, CRC 0x9903 (prefix 0x001a = ackID 0, prio 0, tt 0b01, ftype 0b1010).
 */
export const DOORBELL = '001a0001ffff0000deaf9903';
export const DOORBELL_JSON =
  '{"ackID":0,"vc":0,"crf":0,"prio":0,"tt":1,"ftype":10,"destinationID":1,"sourceID":65535,"rsrv":0,"srcTID":0,"info":57007,"crc":39171}';

export const doorbell = (over: Partial<Type10Packet> = {}): Type10Packet => ({
  ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 0xffff, rsrv: 0, srcTID: 0, info: 0xdeaf, ...over,
});

const type9Header = { ackID: 0, vc: 0, crf: 0, prio: 1, ftype: 9 } as const;

/** Type 9 single segment, Dev16, 100 payload bytes: 110 logical bytes, so an early CRC at byte 80. */
export const type9Long: Type9Packet = {
  ...type9Header, tt: 1, destinationID: 0x0102, sourceID: 0x0304, cos: 7, start: 1, end: 1, rsrv: 0, xh: 0,
  segment: 'single', streamID: 0x0042, payload: counting(100),
};

/** Type 9 traffic management (xh 1, xtype 0): CREDIT ALLOCATE, AU 3, 16 credits, class scope. */
export const type9Tm: Type9Packet = {
  ...type9Header, prio: 0, tt: 0, destinationID: 6, sourceID: 21, cos: 3, start: 0, end: 0, xh: 1, xtype: 0,
  segment: 'tm', streamID: 0, tmOp: 2, tmOpName: tmOpName(2), rsrv: 0, wildcard: 0b001, mask: 0,
  parameter1: 0x13, parameter2: 16, tm: tmMessage(2, 0x13, 16), operand: tmOperand(0b001, 0),
};

/** One packet of every format riodp encodes, over the three tt values, short and long. */
export const PACKETS: readonly { readonly name: string; readonly packet: Packet }[] = [
  { name: 'Type 7 Dev8 XOFF', packet: makeCcp({ tt: 0, destinationID: 0x12, tgtdestinationID: 0x34, command: 'XOFF', flowID: '0C', soc: 0 }) },
  { name: 'Type 7 Dev16 XON_ARB', packet: makeCcp({ tt: 1, destinationID: 0x1234, tgtdestinationID: 0x5678, command: 'XON_ARB', seq: 1, flowID: '1A', soc: 1 }) },
  {
    name: 'Type 7 Dev32 REQUEST_MULTI_PDU',
    packet: makeCcp({ tt: 2, ackID: 63, vc: 1, prio: 2, crf: 0, destinationID: 0x89abcdef, tgtdestinationID: 0x01020304, command: 'REQUEST_MULTI_PDU', seq: 0, flowID: '8A', soc: 1 }),
  },
  { name: 'Type 8 Dev16 read request', packet: maintenanceReadRequest({ tt: 1, destinationID: 0x0102, sourceID: 0x0304, srcTID: 7, byteOffset: 0x64, byteCount: 4 }) },
  // Dev32 with 64 data bytes: 2 + 8 + 6 + 64 = 80 logical bytes, the longest without an early CRC.
  { name: 'Type 8 Dev32 64-byte write request', packet: maintenanceWriteRequest({ tt: 2, destinationID: 0x01020304, sourceID: 0x05060708, srcTID: 9, byteOffset: 0x100, data: counting(64) }) },
  {
    name: 'Type 8 Dev8 read response',
    packet: maintenanceResponse({ tt: 0, destinationID: 0x34, sourceID: 0x12, transactionName: 'MAINTENANCE_READ_RESPONSE', targetTID: 7, payload: counting(8, 0xa0) }),
  },
  {
    name: 'Type 9 Dev8 single, odd payload',
    packet: { ...type9Header, tt: 0, destinationID: 5, sourceID: 6, cos: 128, start: 1, end: 1, rsrv: 0, xh: 0, segment: 'single', streamID: 0xbeef, payload: counting(3, 1) },
  },
  {
    name: 'Type 9 Dev16 start',
    packet: { ...type9Header, tt: 1, destinationID: 0x0102, sourceID: 0x0304, cos: 7, start: 1, end: 0, rsrv: 0, xh: 0, segment: 'start', streamID: 0x42, payload: counting(32) },
  },
  {
    name: 'Type 9 Dev32 end',
    packet: { ...type9Header, tt: 2, destinationID: 0x0a0b0c0d, sourceID: 0x01020304, cos: 7, start: 0, end: 1, rsrv: 0, xh: 0, segment: 'end', length: 69, pduLength: 69, payload: counting(5, 0x40) },
  },
  {
    name: 'Type 9 Dev8 abort',
    packet: { ...type9Header, tt: 0, destinationID: 5, sourceID: 6, cos: 0, start: 0, end: 1, rsrv: 0, xh: 0, segment: 'abort', length: 0, payload: new Uint8Array(0) },
  },
  { name: 'Type 9 Dev8 TM', packet: type9Tm },
  { name: 'Type 9 Dev16 single of 100 bytes', packet: type9Long },
  { name: 'Type 10 doorbell (DECISIONS §1)', packet: doorbell() },
  { name: 'Type 10 Dev8 doorbell', packet: doorbell({ tt: 0, destinationID: 0x12, sourceID: 0x34, srcTID: 0x56, info: 0x789a }) },
  { name: 'Type 10 Dev32 doorbell', packet: doorbell({ tt: 2, prio: 2, destinationID: 0xfedcba98, sourceID: 0x01234567, srcTID: 0xff, info: 1 }) },
  { name: 'Type 11 Dev8 single-packet message', packet: messageSegment({ tt: 0, destinationID: 5, sourceID: 6, letter: 1, mailbox: 43, payload: counting(8) }) },
  // Dev16 multi-packet segment of 256 bytes: 264 logical bytes, early CRC.
  {
    name: 'Type 11 Dev16 256-byte segment',
    packet: messageSegment({ tt: 1, destinationID: 0x0102, sourceID: 0x0304, letter: 3, mailbox: 2, msglen: 3, msgseg: 2, payload: counting(256) }),
  },
  { name: 'Type 13 Dev16 response without data', packet: response({ tt: 1, destinationID: 0x0304, sourceID: 0x0102, targetTID: 7 }) },
  { name: 'Type 13 Dev32 response with 256 bytes', packet: response({ tt: 2, destinationID: 0x05060708, sourceID: 0x01020304, targetTID: 9, payload: counting(256, 0x80) }) },
  { name: 'Type 13 Dev8 message response', packet: messageResponse({ tt: 0, destinationID: 6, sourceID: 5, letter: 1, mbox: 3, msgseg: 10, status: 3 }) },
];

/** CS24 symbols (Part 6 Figure 3-1), one per stype0 riodp names and each stype1 group. */
export const CS24: readonly SymbolFields[] = [
  { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 }, // packet-accepted, golden 032f14
  { link: 'cs24', stype0: 1, parameter0: 31, parameter1: 30, stype1: 0, cmd: 0 }, // packet-retry, start-of-packet
  { link: 'cs24', stype0: 2, parameter0: 4, parameter1: 0b11111, stype1: 2, cmd: 0 }, // packet-not-accepted general-error, end-of-packet
  { link: 'cs24', stype0: 3, parameter0: 0b10101, parameter1: 0b00101, stype1: 5, cmd: 0 }, // timestamp, multicast-event
  { link: 'cs24', stype0: 4, parameter0: 17, parameter1: 9, stype1: 4, cmd: 4 }, // status, link-request/port-status
  { link: 'cs24', stype0: 5, parameter0: 2, parameter1: 7, stype1: 1, cmd: 0 }, // VC_status, stomp
  { link: 'cs24', stype0: 6, parameter0: 2, parameter1: 0b10000, stype1: 3, cmd: 0 }, // link-response OK, restart-from-retry
];

/** CS48 symbols (Figure 3-2) carrying seed-format stype2 (voq-backpressure.txt §3.1). */
export const CS48_SEED: readonly SymbolFields[] = [
  { link: 'cs48', stype0: 5, parameter0: 2, parameter1: 7, stype1: 7, cmd: 0, stype2: 3103 }, // golden a10fc183ec00, port 191
  { link: 'cs48', stype0: 4, parameter0: 0, parameter1: 7, stype1: 7, cmd: 0, stype2: encodeStype2({ format: 'seed', portGroupSize: 0, cmd: 1, portGroup: 1, portStatus: 0b100001 }) },
  { link: 'cs48', stype0: 3, parameter0: 21, parameter1: 5, stype1: 0, cmd: 0, stype2: 0 }, // timestamp, golden 6a8a000017f7
  { link: 'cs48', stype0: 0, parameter0: 63, parameter1: 62, stype1: 4, cmd: 3, stype2: 0 }, // link-request/reset-device
];

/** Part 12 §3.1 stype2 with a port group size of `g` bits. */
export function cs48Part12(g: number): SymbolFields[] {
  const bp = (portGroup: number, portStatus: number) => encodeStype2({ format: 'part12-rev4.1', portGroupSize: g, cmd: 1, portGroup, portStatus });
  return [
    { link: 'cs48', stype0: 6, parameter0: 5, parameter1: 16, stype1: 4, cmd: 4, stype2: bp(1, 0x801 >> g) },
    { link: 'cs48', stype0: 4, parameter0: 9, parameter1: 63, stype1: 7, cmd: 0, stype2: bp((1 << g) - 1, 1) },
    { link: 'cs48', stype0: 0, parameter0: 1, parameter1: 2, stype1: 7, cmd: 0, stype2: 0 }, // NOP (all zero)
  ];
}

/** Session management messages: the Chapter 4 golden vectors of src/wire/smp/*.test.ts. */
export const SMP = [
  '01010012 00340500 ffff0000 00000000',
  '02010034 00128002 01010102 00000000',
  '03010012 01020004 f0000003 00000007 80020000 000005dc 80010001 00000002 800300a0 1e010203',
  '04010034 00050042 01020001 f0000003 00000007 00000000',
  '05010034 00ffffff 01020001 f0000003 00000007 00000000',
  '07010501 00120042 01020000 00000000',
  '08010012 00340500 00420000 00000000',
  '10010500 00120042 02001001 8000000e',
  'f3010500 00120042 01020304 05060708',
  '06010205 00000012 c0050042 68656c6c 6f000000 00000000',
  '09010205 00000012 80000003 00420000 61626300 00000000',
  '0a5ac004 01020304',
].map((h) => h.replace(/ /g, ''));
