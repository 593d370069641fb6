import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import { parseHex, toHex } from './hex.ts';
import { decodeSymbol, encodeSymbol } from './symbol.ts';

/*
 * Golden control symbols, one per stype0, stype1 and cmd encoding, in CS24 and CS48.
 *
 * Each vector is assembled from the fields in the order of Part 6 Figure 3-1 (CS24:
 * stype0(3) parameter0(5) parameter1(5) stype1(3) cmd(3) CRC-5(5)) or Figure 3-2 (CS48:
 * stype0(3) parameter0(6) parameter1(6) stype1(3) cmd(3) stype2(14) CRC-13(13)), bit 0 first.
 * The first comment line lists the fields, the second the resulting bytes. The CRC bits c0..c4
 * (c0..c12) were worked out with the parallel equations of Table 3-25 (Table 3-26): c_i is the
 * XOR of the data bits D_j marked "x" in column C_i, D18 inverted where marked "!x" (CS24).
 * stype2 fields (VoQ Backpressure §3.1 Table 3-1) are split as CMD(3) status(6) group(5).
 */
interface Vector {
  readonly clause: string;
  readonly what: string;
  readonly hex: string;
  readonly expect: Record<string, unknown>;
}

const VECTORS: readonly Vector[] = [
  // 000 | 00011 | 00101 | 111 | 000 | CRC-5 10100
  //   = 00000011 00101111 00010100
  { clause: 'Part 6 §3.4.1 Table 3-5', what: 'CS24 stype0 0b000 packet-accepted: parameter0 packet_ackID, parameter1 buf_status', hex: '032f14',
    expect: { stype0: 0, parameter0: 3, parameter1: 5, stype0Name: 'packet-accepted', packetAckID: 3, bufStatus: 5, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x14 } },
  // 001 | 11111 | 00000 | 111 | 000 | CRC-5 00011
  //   = 00111111 00000111 00000011
  { clause: 'Part 6 §3.4.2 Table 3-6', what: 'CS24 stype0 0b001 packet-retry: packet_ackID and buf_status', hex: '3f0703',
    expect: { stype0: 1, parameter0: 31, parameter1: 0, stype0Name: 'packet-retry', packetAckID: 31, bufStatus: 0, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x3 } },
  // 010 | 01001 | 00100 | 111 | 000 | CRC-5 00011
  //   = 01001001 00100111 00000011
  { clause: 'Part 6 §3.4.3 Table 3-7/3-8', what: 'CS24 stype0 0b010 packet-not-accepted: ackID_status and cause 0b00100 (packet with bad CRC)', hex: '492703',
    expect: { stype0: 2, parameter0: 9, parameter1: 4, stype0Name: 'packet-not-accepted', ackIDStatus: 9, cause: 4, causeName: 'packet-bad-crc', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x3 } },
  // 010 | 00000 | 11111 | 111 | 000 | CRC-5 00000
  //   = 01000000 11111111 00000000
  { clause: 'Part 6 §3.4.3 Table 3-8', what: 'CS24 packet-not-accepted cause 0b11111 is general error', hex: '40ff00',
    expect: { stype0: 2, parameter0: 0, parameter1: 31, stype0Name: 'packet-not-accepted', ackIDStatus: 0, cause: 31, causeName: 'general-error', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x0 } },
  // 011 | 10101 | 00101 | 111 | 000 | CRC-5 01110
  //   = 01110101 00101111 00001110
  { clause: 'Part 6 §3.4.4 Table 3-9/6-3/6-4', what: 'CS24 stype0 0b011 timestamp: start flag, end flag, timestamp byte 0xa5; as loop-response the same bits are Delay', hex: '752f0e',
    expect: { stype0: 3, parameter0: 21, parameter1: 5, stype0Name: 'timestamp', startFlag: 1, endFlag: 0, timestamp: 165, delay: 677, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0xe } },
  // 100 | 00001 | 11110 | 111 | 000 | CRC-5 10111
  //   = 10000001 11110111 00010111
  { clause: 'Part 6 §3.4.5 Table 3-10', what: 'CS24 stype0 0b100 status: ackID_status and buf_status \'at least\' value', hex: '81f717',
    expect: { stype0: 4, parameter0: 1, parameter1: 30, stype0Name: 'status', ackIDStatus: 1, bufStatus: 30, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x17 } },
  // 101 | 00110 | 11111 | 111 | 000 | CRC-5 11100
  //   = 10100110 11111111 00011100
  { clause: 'Part 6 §3.4.6 Table 3-11', what: 'CS24 stype0 0b101 VC_status: VCID right-justified in parameter0, buf_status', hex: 'a6ff1c',
    expect: { stype0: 5, parameter0: 6, parameter1: 31, stype0Name: 'VC_status', vcid: 6, bufStatus: 31, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x1c } },
  // 110 | 00100 | 10000 | 111 | 000 | CRC-5 00011
  //   = 11000100 10000111 00000011
  { clause: 'Part 6 §3.4.7 Table 3-13/3-14', what: 'CS24 stype0 0b110 link-response: ackID_status and port_status 0b10000 OK', hex: 'c48703',
    expect: { stype0: 6, parameter0: 4, parameter1: 16, stype0Name: 'link-response', ackIDStatus: 4, portStatus: 16, portStatusName: 'OK', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x3 } },
  // 110 | 11111 | 00101 | 111 | 000 | CRC-5 00001
  //   = 11011111 00101111 00000001
  { clause: 'Part 6 §3.4.7 Table 3-14', what: 'CS24 link-response port_status 0b00101 is Error-stopped', hex: 'df2f01',
    expect: { stype0: 6, parameter0: 31, parameter1: 5, stype0Name: 'link-response', ackIDStatus: 31, portStatus: 5, portStatusName: 'Error-stopped', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x1 } },
  // 111 | 10101 | 01010 | 111 | 000 | CRC-5 11101
  //   = 11110101 01010111 00011101
  { clause: 'Part 6 §3.4 Table 3-2', what: 'CS24 stype0 0b111 implementation-defined keeps both parameters raw', hex: 'f5571d',
    expect: { stype0: 7, parameter0: 21, parameter1: 10, stype0Name: 'implementation-defined', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0x1d } },
  // 100 | 00000 | 00010 | 000 | 000 | CRC-5 11010
  //   = 10000000 00010000 00011010
  { clause: 'Part 6 §3.5.1 Table 3-19', what: 'CS24 stype1 0b000 cmd 0b000 start-of-packet', hex: '80101a',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 0, stype1Name: 'start-of-packet', cmd: 0, cmdName: 'start-of-packet', crc: 0x1a } },
  // 100 | 00000 | 00010 | 001 | 000 | CRC-5 00011
  //   = 10000000 00010001 00000011
  { clause: 'Part 6 §3.5.2 Table 3-20', what: 'CS24 stype1 0b001 cmd 0b000 stomp', hex: '801103',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 1, stype1Name: 'stomp', cmd: 0, cmdName: 'stomp', crc: 0x3 } },
  // 100 | 00000 | 00010 | 010 | 000 | CRC-5 11101
  //   = 10000000 00010010 00011101
  { clause: 'Part 6 §3.5.3 Table 3-21', what: 'CS24 stype1 0b010 cmd 0b000 end-of-packet', hex: '80121d',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 2, stype1Name: 'end-of-packet', cmd: 0, cmdName: 'end-of-packet', crc: 0x1d } },
  // 100 | 00000 | 00010 | 011 | 000 | CRC-5 00100
  //   = 10000000 00010011 00000100
  { clause: 'Part 6 §3.5.4 Table 3-22', what: 'CS24 stype1 0b011 cmd 0b000 restart-from-retry', hex: '801304',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 3, stype1Name: 'restart-from-retry', cmd: 0, cmdName: 'restart-from-retry', crc: 0x4 } },
  // 100 | 00000 | 00010 | 100 | 010 | CRC-5 11111
  //   = 10000000 00010100 01011111
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS24 stype1 0b100 link-request cmd 0b010 reset-port', hex: '80145f',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 2, cmdName: 'reset-port', crc: 0x1f } },
  // 100 | 00000 | 00010 | 100 | 011 | CRC-5 00000
  //   = 10000000 00010100 01100000
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS24 stype1 0b100 link-request cmd 0b011 reset-device', hex: '801460',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 3, cmdName: 'reset-device', crc: 0x0 } },
  // 100 | 00000 | 00010 | 100 | 100 | CRC-5 00010
  //   = 10000000 00010100 10000010
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS24 stype1 0b100 link-request cmd 0b100 port-status', hex: '801482',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 4, cmdName: 'port-status', crc: 0x2 } },
  // 100 | 00000 | 00010 | 101 | 000 | CRC-5 01101
  //   = 10000000 00010101 00001101
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS24 stype1 0b101 timing cmd 0b000 multicast-event', hex: '80150d',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 0, cmdName: 'multicast-event', crc: 0xd } },
  // 100 | 00000 | 00010 | 101 | 001 | CRC-5 10010
  //   = 10000000 00010101 00110010
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS24 stype1 0b101 timing cmd 0b001 secondary multicast-event', hex: '801532',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 1, cmdName: 'secondary-multicast-event', crc: 0x12 } },
  // 100 | 00000 | 00010 | 101 | 011 | CRC-5 11001
  //   = 10000000 00010101 01111001
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS24 stype1 0b101 timing cmd 0b011 loop-timing request', hex: '801579',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 3, cmdName: 'loop-timing-request', crc: 0x19 } },
  // 100 | 00000 | 00010 | 110 | 000 | CRC-5 10011
  //   = 10000000 00010110 00010011
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS24 stype1 0b110 is reserved (lenient decode labels it)', hex: '801613',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 6, stype1Name: 'RESERVED', cmd: 0, cmdName: 'RESERVED', crc: 0x13 } },
  // 100 | 00000 | 00010 | 111 | 000 | CRC-5 01010
  //   = 10000000 00010111 00001010
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS24 stype1 0b111 cmd 0b000 NOP', hex: '80170a',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', crc: 0xa } },
  // 100 | 00000 | 00010 | 000 | 001 | CRC-5 00101
  //   = 10000000 00010000 00100101
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS24 stype1 0b000 with cmd 0b001 is a reserved cmd', hex: '801025',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 0, stype1Name: 'start-of-packet', cmd: 1, cmdName: 'RESERVED', crc: 0x5 } },
  // 100 | 00000 | 00010 | 100 | 000 | CRC-5 10100
  //   = 10000000 00010100 00010100
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS24 link-request cmd 0b000 is reserved', hex: '801414',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 0, cmdName: 'RESERVED', crc: 0x14 } },
  // 100 | 00000 | 00010 | 100 | 101 | CRC-5 11101
  //   = 10000000 00010100 10111101
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS24 link-request cmd 0b101 is reserved', hex: '8014bd',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 5, cmdName: 'RESERVED', crc: 0x1d } },
  // 100 | 00000 | 00010 | 101 | 010 | CRC-5 00110
  //   = 10000000 00010101 01000110
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS24 timing cmd 0b010 is reserved', hex: '801546',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 2, cmdName: 'RESERVED', crc: 0x6 } },
  // 100 | 00000 | 00010 | 111 | 111 | CRC-5 01000
  //   = 10000000 00010111 11101000
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS24 NOP with cmd 0b111 is a reserved cmd', hex: '8017e8',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 7, stype1Name: 'NOP', cmd: 7, cmdName: 'RESERVED', crc: 0x8 } },
  // 000 | 000011 | 000101 | 111 | 000 | 00000000000000 | CRC-13 1000101011011
  //   = 00000001 10001011 11000000 00000000 00010001 01011011
  { clause: 'Part 6 §3.4.1 Table 3-5', what: 'CS48 stype0 0b000 packet-accepted: parameter0 packet_ackID, parameter1 buf_status', hex: '018bc000115b',
    expect: { stype0: 0, parameter0: 3, parameter1: 5, stype0Name: 'packet-accepted', packetAckID: 3, bufStatus: 5, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x115b } },
  // 001 | 111111 | 000000 | 111 | 000 | 00000000000000 | CRC-13 0111101110001
  //   = 00111111 10000001 11000000 00000000 00001111 01110001
  { clause: 'Part 6 §3.4.2 Table 3-6', what: 'CS48 stype0 0b001 packet-retry: packet_ackID and buf_status', hex: '3f81c0000f71',
    expect: { stype0: 1, parameter0: 63, parameter1: 0, stype0Name: 'packet-retry', packetAckID: 63, bufStatus: 0, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0xf71 } },
  // 010 | 001001 | 000100 | 111 | 000 | 00000000000000 | CRC-13 0010100001000
  //   = 01000100 10001001 11000000 00000000 00000101 00001000
  { clause: 'Part 6 §3.4.3 Table 3-7/3-8', what: 'CS48 stype0 0b010 packet-not-accepted: ackID_status and cause 0b00100 (packet with bad CRC)', hex: '4489c0000508',
    expect: { stype0: 2, parameter0: 9, parameter1: 4, stype0Name: 'packet-not-accepted', ackIDStatus: 9, cause: 4, causeName: 'packet-bad-crc', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x508 } },
  // 010 | 000000 | 011111 | 111 | 000 | 00000000000000 | CRC-13 1011010101001
  //   = 01000000 00111111 11000000 00000000 00010110 10101001
  { clause: 'Part 6 §3.4.3 Table 3-8', what: 'CS48 packet-not-accepted cause 0b11111 is general error', hex: '403fc00016a9',
    expect: { stype0: 2, parameter0: 0, parameter1: 31, stype0Name: 'packet-not-accepted', ackIDStatus: 0, cause: 31, causeName: 'general-error', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x16a9 } },
  // 011 | 010101 | 000101 | 111 | 000 | 00000000000000 | CRC-13 1100000111001
  //   = 01101010 10001011 11000000 00000000 00011000 00111001
  { clause: 'Part 6 §3.4.4 Table 3-9/6-3/6-4', what: 'CS48 stype0 0b011 timestamp: start flag, end flag, timestamp byte 0xa5; as loop-response the same bits are Delay', hex: '6a8bc0001839',
    expect: { stype0: 3, parameter0: 21, parameter1: 5, stype0Name: 'timestamp', startFlag: 1, endFlag: 0, timestamp: 165, delay: 1349, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x1839 } },
  // 100 | 000001 | 111110 | 111 | 000 | 00000000000000 | CRC-13 1110110100000
  //   = 10000000 11111101 11000000 00000000 00011101 10100000
  { clause: 'Part 6 §3.4.5 Table 3-10', what: 'CS48 stype0 0b100 status: ackID_status and buf_status \'at least\' value', hex: '80fdc0001da0',
    expect: { stype0: 4, parameter0: 1, parameter1: 62, stype0Name: 'status', ackIDStatus: 1, bufStatus: 62, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x1da0 } },
  // 101 | 000110 | 111111 | 111 | 000 | 00000000000000 | CRC-13 1010100001001
  //   = 10100011 01111111 11000000 00000000 00010101 00001001
  { clause: 'Part 6 §3.4.6 Table 3-11', what: 'CS48 stype0 0b101 VC_status: VCID right-justified in parameter0, buf_status', hex: 'a37fc0001509',
    expect: { stype0: 5, parameter0: 6, parameter1: 63, stype0Name: 'VC_status', vcid: 6, bufStatus: 63, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x1509 } },
  // 110 | 000100 | 010000 | 111 | 000 | 00000000000000 | CRC-13 1110100111110
  //   = 11000010 00100001 11000000 00000000 00011101 00111110
  { clause: 'Part 6 §3.4.7 Table 3-13/3-14', what: 'CS48 stype0 0b110 link-response: ackID_status and port_status 0b10000 OK', hex: 'c221c0001d3e',
    expect: { stype0: 6, parameter0: 4, parameter1: 16, stype0Name: 'link-response', ackIDStatus: 4, portStatus: 16, portStatusName: 'OK', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x1d3e } },
  // 110 | 111111 | 000101 | 111 | 000 | 00000000000000 | CRC-13 1000110000101
  //   = 11011111 10001011 11000000 00000000 00010001 10000101
  { clause: 'Part 6 §3.4.7 Table 3-14', what: 'CS48 link-response port_status 0b00101 is Error-stopped', hex: 'df8bc0001185',
    expect: { stype0: 6, parameter0: 63, parameter1: 5, stype0Name: 'link-response', ackIDStatus: 63, portStatus: 5, portStatusName: 'Error-stopped', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x1185 } },
  // 111 | 010101 | 001010 | 111 | 000 | 00000000000000 | CRC-13 0010110111010
  //   = 11101010 10010101 11000000 00000000 00000101 10111010
  { clause: 'Part 6 §3.4 Table 3-2', what: 'CS48 stype0 0b111 implementation-defined keeps both parameters raw', hex: 'ea95c00005ba',
    expect: { stype0: 7, parameter0: 21, parameter1: 10, stype0Name: 'implementation-defined', stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x5ba } },
  // 100 | 000000 | 000010 | 000 | 000 | 00000000000000 | CRC-13 0100110001101
  //   = 10000000 00000100 00000000 00000000 00001001 10001101
  { clause: 'Part 6 §3.5.1 Table 3-19', what: 'CS48 stype1 0b000 cmd 0b000 start-of-packet', hex: '80040000098d',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 0, stype1Name: 'start-of-packet', cmd: 0, cmdName: 'start-of-packet', stype2: 0, crc: 0x98d } },
  // 100 | 000000 | 000010 | 001 | 000 | 00000000000000 | CRC-13 0101111001111
  //   = 10000000 00000100 01000000 00000000 00001011 11001111
  { clause: 'Part 6 §3.5.2 Table 3-20', what: 'CS48 stype1 0b001 cmd 0b000 stomp', hex: '800440000bcf',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 1, stype1Name: 'stomp', cmd: 0, cmdName: 'stomp', stype2: 0, crc: 0xbcf } },
  // 100 | 000000 | 000010 | 010 | 000 | 00000000000000 | CRC-13 0110100001001
  //   = 10000000 00000100 10000000 00000000 00001101 00001001
  { clause: 'Part 6 §3.5.3 Table 3-21', what: 'CS48 stype1 0b010 cmd 0b000 end-of-packet', hex: '800480000d09',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 2, stype1Name: 'end-of-packet', cmd: 0, cmdName: 'end-of-packet', stype2: 0, crc: 0xd09 } },
  // 100 | 000000 | 000010 | 011 | 000 | 00000000000000 | CRC-13 0111101001011
  //   = 10000000 00000100 11000000 00000000 00001111 01001011
  { clause: 'Part 6 §3.5.4 Table 3-22', what: 'CS48 stype1 0b011 cmd 0b000 restart-from-retry', hex: '8004c0000f4b',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 3, stype1Name: 'restart-from-retry', cmd: 0, cmdName: 'restart-from-retry', stype2: 0, crc: 0xf4b } },
  // 100 | 000000 | 000010 | 100 | 010 | 00000000000000 | CRC-13 1001010000111
  //   = 10000000 00000101 00010000 00000000 00010010 10000111
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS48 stype1 0b100 link-request cmd 0b010 reset-port', hex: '800510001287',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 2, cmdName: 'reset-port', stype2: 0, crc: 0x1287 } },
  // 100 | 000000 | 000010 | 100 | 011 | 00000000000000 | CRC-13 1101110000110
  //   = 10000000 00000101 00011000 00000000 00011011 10000110
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS48 stype1 0b100 link-request cmd 0b011 reset-device', hex: '800518001b86',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 3, cmdName: 'reset-device', stype2: 0, crc: 0x1b86 } },
  // 100 | 000000 | 000010 | 100 | 100 | 00000000000000 | CRC-13 0000110100100
  //   = 10000000 00000101 00100000 00000000 00000001 10100100
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS48 stype1 0b100 link-request cmd 0b100 port-status', hex: '8005200001a4',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 4, cmdName: 'port-status', stype2: 0, crc: 0x1a4 } },
  // 100 | 000000 | 000010 | 101 | 000 | 00000000000000 | CRC-13 0001011000111
  //   = 10000000 00000101 01000000 00000000 00000010 11000111
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS48 stype1 0b101 timing cmd 0b000 multicast-event', hex: '8005400002c7',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 0, cmdName: 'multicast-event', stype2: 0, crc: 0x2c7 } },
  // 100 | 000000 | 000010 | 101 | 001 | 00000000000000 | CRC-13 0101111000110
  //   = 10000000 00000101 01001000 00000000 00001011 11000110
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS48 stype1 0b101 timing cmd 0b001 secondary multicast-event', hex: '800548000bc6',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 1, cmdName: 'secondary-multicast-event', stype2: 0, crc: 0xbc6 } },
  // 100 | 000000 | 000010 | 101 | 011 | 00000000000000 | CRC-13 1100111000100
  //   = 10000000 00000101 01011000 00000000 00011001 11000100
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS48 stype1 0b101 timing cmd 0b011 loop-timing request', hex: '8005580019c4',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 3, cmdName: 'loop-timing-request', stype2: 0, crc: 0x19c4 } },
  // 100 | 000000 | 000010 | 110 | 000 | 00000000000000 | CRC-13 0010000000001
  //   = 10000000 00000101 10000000 00000000 00000100 00000001
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS48 stype1 0b110 is reserved (lenient decode labels it)', hex: '800580000401',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 6, stype1Name: 'RESERVED', cmd: 0, cmdName: 'RESERVED', stype2: 0, crc: 0x401 } },
  // 100 | 000000 | 000010 | 111 | 000 | 00000000000000 | CRC-13 0011001000011
  //   = 10000000 00000101 11000000 00000000 00000110 01000011
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS48 stype1 0b111 cmd 0b000 NOP', hex: '8005c0000643',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', stype2: 0, crc: 0x643 } },
  // 100 | 000000 | 000010 | 000 | 001 | 00000000000000 | CRC-13 0000010001100
  //   = 10000000 00000100 00001000 00000000 00000000 10001100
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS48 stype1 0b000 with cmd 0b001 is a reserved cmd', hex: '80040800008c',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 0, stype1Name: 'start-of-packet', cmd: 1, cmdName: 'RESERVED', stype2: 0, crc: 0x8c } },
  // 100 | 000000 | 000010 | 100 | 000 | 00000000000000 | CRC-13 0000010000101
  //   = 10000000 00000101 00000000 00000000 00000000 10000101
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS48 link-request cmd 0b000 is reserved', hex: '800500000085',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 0, cmdName: 'RESERVED', stype2: 0, crc: 0x85 } },
  // 100 | 000000 | 000010 | 100 | 101 | 00000000000000 | CRC-13 0100010100101
  //   = 10000000 00000101 00101000 00000000 00001000 10100101
  { clause: 'Part 6 §3.5.5 Table 3-23', what: 'CS48 link-request cmd 0b101 is reserved', hex: '8005280008a5',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 4, stype1Name: 'link-request', cmd: 5, cmdName: 'RESERVED', stype2: 0, crc: 0x8a5 } },
  // 100 | 000000 | 000010 | 101 | 010 | 00000000000000 | CRC-13 1000011000101
  //   = 10000000 00000101 01010000 00000000 00010000 11000101
  { clause: 'Part 6 §3.5.6 Table 3-24', what: 'CS48 timing cmd 0b010 is reserved', hex: '8005500010c5',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 5, stype1Name: 'timing', cmd: 2, cmdName: 'RESERVED', stype2: 0, crc: 0x10c5 } },
  // 100 | 000000 | 000010 | 111 | 111 | 00000000000000 | CRC-13 1110001100001
  //   = 10000000 00000101 11111000 00000000 00011100 01100001
  { clause: 'Part 6 §3.5 Table 3-17', what: 'CS48 NOP with cmd 0b111 is a reserved cmd', hex: '8005f8001c61',
    expect: { stype0: 4, parameter0: 0, parameter1: 2, stype0Name: 'status', ackIDStatus: 0, bufStatus: 2, stype1: 7, stype1Name: 'NOP', cmd: 7, cmdName: 'RESERVED', stype2: 0, crc: 0x1c61 } },
  // 100 | 000000 | 000111 | 111 | 000 | 001 100001 00001 | CRC-13 1101011110000
  //   = 10000000 00001111 11000001 10000100 00111010 11110000
  { clause: 'VoQ Backpressure §3.1 Table 3-1/3-2/3-3, §3.2', what: 'CS48 VoQ backpressure linked with a Status symbol: group 1, offsets 0 and 5 congested = ports 6 and 11', hex: '800fc1843af0',
    expect: { stype0: 4, parameter0: 0, parameter1: 7, stype2: 0b001_100001_00001, stype0Name: 'status', ackIDStatus: 0, bufStatus: 7, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', voq: { format: 'seed', cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 1, portStatus: 33, congestedPorts: [6, 11] }, crc: 0x1af0 } },
  // 101 | 000010 | 000111 | 111 | 000 | 001 100000 11111 | CRC-13 0110000000000
  //   = 10100001 00001111 11000001 10000011 11101100 00000000
  { clause: 'VoQ Backpressure §3.1 Table 3-1/3-2/3-3, §3.2', what: 'CS48 VoQ backpressure linked with VC_status VCID 2: group 31, offset 5 congested = port 191', hex: 'a10fc183ec00',
    expect: { stype0: 5, parameter0: 2, parameter1: 7, stype2: 0b001_100000_11111, stype0Name: 'VC_status', vcid: 2, bufStatus: 7, stype1: 7, stype1Name: 'NOP', cmd: 0, cmdName: 'NOP', voq: { format: 'seed', cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 31, portStatus: 32, congestedPorts: [191] }, crc: 0xc00 } },
];

const NOP_VOQ = { format: 'seed', cmd: 0, cmdName: 'NOP', portGroup: 0, portStatus: 0, congestedPorts: [] };

for (const v of VECTORS) {
  test(`${v.clause}: ${v.what}`, () => {
    const bytes = parseHex(v.hex);
    const link = bytes.length === 3 ? 'cs24' : 'cs48';
    const s = decodeSymbol(bytes, 0, bytes.length, { link });
    const expected = { link, ...(link === 'cs48' ? { voq: NOP_VOQ } : {}), ...v.expect };
    assert.deepEqual({ ...s }, expected);
    const out = new Uint8Array(bytes.length);
    assert.equal(encodeSymbol(s, out, 0), bytes.length);
    assert.equal(toHex(out), v.hex);
    const reserved = s.stype1Name === 'RESERVED' || s.cmdName === 'RESERVED';
    if (reserved) {
      assert.throws(() => decodeSymbol(bytes, 0, bytes.length, { link, strict: true }), (e: unknown) => e instanceof WireError && e.code === 'reserved');
    } else {
      assert.deepEqual(decodeSymbol(bytes, 0, bytes.length, { link, strict: true }), s);
    }
  });
}
