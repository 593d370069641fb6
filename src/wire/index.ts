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
 *
 * @module riodp/wire
 */
export { WireError, WireErrorCode, attempt } from './errors.ts';
export type { DecodeResult, DecodeOptions } from './errors.ts';

// Packets: the transport and logical layers, their serial framing, and builders.
export { TT, TT_NAMES } from './header.ts';
export type { PacketHeader, PacketArgs, PacketDecodeOptions, Tt } from './header.ts';
export { decodePacket, decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength, SUPPORTED_FTYPES } from './packet.ts';
export type { Packet, SerialPacket } from './packet.ts';
export { MAX_SERIAL_PACKET } from './serial.ts';
export type { SerialFields } from './serial.ts';
export { parseHex, toHex } from './hex.ts';
export {
  FLOW_IDS, FLOW_ID_LABELS, VC_COUNTS, flowIdLabel, flowIdCode, isReservedFlowId, flowIdChannel, flowIdForPacket, packetForFlowId, ccpPrioCrf,
  packetChannel, flowIdForChannel, channelPacketFields,
} from './flow-id.ts';
export type { FlowIdLabel, FlowIdName, VcCount, PacketFlowFields, FlowMapping, FlowPacketFields } from './flow-id.ts';
export { FTYPE_FLOW_CONTROL, TYPE7_COMMAND, commandHasSeq, type7Command, type7Fam, makeCcp } from './type7.ts';
export type { Type7Packet, Type7Command, Type7DefinedCommand, CcpFields } from './type7.ts';
export {
  FTYPE_MAINTENANCE, MAINTENANCE_MAX_BYTES, TYPE8_TRANSACTION, TYPE8_TRANSACTION_NAMES, MAINTENANCE_STATUS, type8TransactionName, type8StatusName,
  type8DataSize, isMaintenanceSize, isType8Response,
} from './type8-types.ts';
export type {
  Type8Packet, Type8Request, Type8ReadRequest, Type8WriteRequest, Type8PortWriteRequest, Type8Response, Type8Reserved, Type8TransactionName,
  Type8StatusName, DataSize,
} from './type8-types.ts';
export { maintenanceReadRequest, maintenanceWriteRequest, maintenanceResponse, maintenanceResponseTo } from './type8-build.ts';
export type { HeaderArgs, MaintenanceRequestArgs, MaintenanceResponseArgs } from './type8-build.ts';
export { FTYPE_DATA_STREAMING, MTU_MIN, MTU_MAX, TM_BYTES } from './type9-types.ts';
export { type9Segment } from './type9-types.ts';
export type {
  Type9Packet, Type9DataPacket, Type9StartPacket, Type9ContinuationPacket, Type9EndPacket, Type9AbortPacket, Type9TmPacket, Type9ExtendedPacket,
  Type9Segment,
} from './type9-types.ts';
export {
  TM_OP, TM_OP_NAMES, TM_MESSAGE_NAMES, TM_SCOPES, tmOpName, tmOpCode, tmMessage, tmParameters, isValidMask, tmOperand, tmOperandFields,
} from './type9-tm.ts';
export type { TmOp, TmOpName, TmRate, TmMessage, TmMessageName, TmOperand, TmScope } from './type9-tm.ts';
export { FTYPE_DOORBELL } from './type10.ts';
export type { Type10Packet } from './type10.ts';
export { FTYPE_MESSAGE, MESSAGE_MAX_SEGMENT, ssizeBytes, ssizeFor, messageSegment } from './type11.ts';
export type { Type11Packet, MessageSegmentArgs } from './type11.ts';
export {
  FTYPE_RESPONSE, RESPONSE_MAX_DATA, TYPE13_TRANSACTION, RESPONSE_STATUS, type13TransactionName, type13StatusName, response, messageResponse,
  messageResponseTo,
} from './type13.ts';
export type { Type13Packet, Type13Response, Type13MessageResponse, Type13TransactionName, Type13StatusName, ResponseArgs } from './type13.ts';

// Control symbols (Part 6 §3) and VoQ backpressure (the stype2 field, Part 12's CS64 form).
export { LINKS, Stype0, STYPE0_NAMES, Stype1, STYPE1_NAMES, CMD_NAMES, cmdName, cmdOf } from './symbol-types.ts';
export type { Link, Stype0Name, Stype1Name, CmdName } from './symbol-types.ts';
export {
  CAUSES, CAUSE_NAMES, PORT_STATUSES, PORT_STATUS_NAMES, causeName, causeOf, portStatusName, portStatusOf, vcOfVcid,
} from './symbol-parameters.ts';
export type { CauseName, PortStatusName, ParameterMeanings } from './symbol-parameters.ts';
export { decodeSymbol, encodeSymbol, buildSymbol, symbolLength } from './symbol.ts';
export type { ControlSymbol, SymbolFields, SymbolOptions } from './symbol.ts';
export { LINK_CS64, Stype0_64, STYPE0_64_NAMES, Stype1_64, STYPE1_64_NAMES, PORT_CONDITION_NAMES, stype1Name64, stype1Of64 } from './symbol64-types.ts';
export type { Link64, Stype0Name64, Stype1Name64, PortConditionName, ParameterMeanings64 } from './symbol64-types.ts';
export { decodeSymbol64, encodeSymbol64, buildSymbol64, SYMBOL64_LENGTH } from './symbol64.ts';
export type { ControlSymbol64, Symbol64Fields, Symbol64Options } from './symbol64.ts';
export {
  VOQ_FORMATS, VoqCmdName, STYPE2_BITS, SEED_VOQ, PART12_VOQ, voqLayout, decodeStype2, encodeStype2, voqSymbol, congestedPortsOf, groupOfPort,
  portsInGroup,
} from './voq-stype2.ts';
export type { VoqFormat, VoqStype2, SeedVoq, Part12Voq, VoqOptions, VoqLayout, Stype2Fields } from './voq-stype2.ts';
export {
  VOQ_CS64, VOQ_SYMBOL_FORMS, VC_IND_NAMES, vcIndName, vcOfVcInd, vcIndOfVc, voqCs64Layout, decodeVoqCs64, encodeVoqCs64, voqCs64Parameters,
  groupOfPortCs64,
} from './voq-cs64.ts';
export type { VoqSymbolForm, VcIndName, VoqCs64, VoqCs64Fields, VoqCs64Options } from './voq-cs64.ts';

// CRCs.
export { CRC5_POLY, CRC5_INIT, crc5 } from './crc5.ts';
export { CRC13_POLY, CRC13_INIT, crc13 } from './crc13.ts';
export { CRC24_POLY, CRC24_INIT, crc24 } from './crc24.ts';
export { CRC16_POLY, CRC16_INIT, crc16Update, crc16Packet, crc16PacketCrcs } from './crc16.ts';

// The software fabric's link framing (docs/net-framing.md) and the fast lane's frame batches (docs/fast-lane.md).
export {
  FRAME_HEADER_BYTES, FRAME_LENGTH_BYTES, MAX_FRAME_LENGTH_FIELD, MAX_SENT_FRAME, FRAME_KIND, LINK_VERSION, HELLO_MAGIC, CLOSE_REASON, CLOSE_TEXT_MAX,
  packetFrame, cs48Frame, cs64Frame, helloFrame, closeFrame, frameKindName, reasonName,
} from './frame-types.ts';
export type {
  Frame, DecodedFrame, PacketFrame, Cs48Frame, Cs64Frame, HelloFrame, CloseFrame, ReservedFrame, FrameKindName, CloseReason, CloseReasonName,
} from './frame-types.ts';
export { decodeFrame, frameLength, encodeFrame } from './frame.ts';
export type { FrameDecodeOptions } from './frame.ts';
export { FrameReader, DEFAULT_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE, MAX_MAX_FRAME_SIZE } from './frame-reader.ts';
export type { FrameReaderOptions, FrameSink } from './frame-reader.ts';
export { FrameBatch, parseFrameBatch } from './frame-batch.ts';
export type { FrameBatchOptions } from './frame-batch.ts';
export { FrameColumns, FRAME_DEFECT, FRAME_DEFECT_NAMES, FRAME_DEFECT_COUNT, T9_FLAG, DEFAULT_BATCH_CAPACITY, frameDefectOf } from './frame-batch-types.ts';
export type { FrameDefect, T9Flag } from './frame-batch-types.ts';

// Captures: pcapng files (docs/pcapng.md) whose packets are riodp capture records (link frames).
export { PCAPNG_BLOCK, PCAPNG_OPTION, LINKTYPE_USER0, TSRESOL_NS } from './pcapng/format.ts';
export type { PcapngInterface, PcapngPacket, PcapngSection, PcapngDirection } from './pcapng/format.ts';
export {
  sectionHeaderLength, encodeSectionHeader, interfaceDescriptionLength, encodeInterfaceDescription, enhancedPacketLength, encodeEnhancedPacket,
  writePcapng,
} from './pcapng/encode.ts';
export type { PcapngContents } from './pcapng/encode.ts';
export { readPcapng, decodePcapng, isPcapng, timestampToNs } from './pcapng/decode.ts';
export type { PcapngFile, PcapngItem, PcapngInterfaceRead, PcapngPacketRead } from './pcapng/decode.ts';
export { CAPTURE_KIND, captureRecordLength, encodeCaptureRecord, decodeCaptureRecord } from './pcapng/record.ts';
export type { CaptureRecord, DecodedCaptureRecord, Cs24Record, PacketCs24Record } from './pcapng/record.ts';

// Annex 2 session management messages and attributes.
export type { SmpMessage } from './smp/index.ts';
export { decodeSmp, encodeSmp, smpBytes, smpLength } from './smp/index.ts';
/** Annex 2 session management messages (Chapter 4) and attributes (§4.2.6): builders, names and constants. */
export * as smp from './smp/public.ts';
