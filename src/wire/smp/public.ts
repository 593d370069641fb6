// The `smp` namespace of `riodp/wire`: Annex 2 session management messages (Chapter 4) and their
// attributes (§4.2.6), as an application or a test builds and reads them. `decodeSmp` and
// `encodeSmp` handle every message; the builders (`smpRequest`, `smpOpen`, …) fill in the
// version and padding; the name functions read a field's value as the annex names it. The
// per-message codecs behind them stay internal (smp/index.ts).
// A line comment, not a doc comment: TypeDoc would give a doc comment here to the first export
// below, so smp.smpStatus and smp.smpUnknown would show this text instead of their own.
export { decodeSmp, encodeSmp, smpBytes, smpLength, smpStatus, smpUnknown } from './index.ts';
export type { SmpMessage, SmpUnknown } from './index.ts';
export {
  SMP_COMMAND, USERDEFINED_FIRST, SMP_VER, PROTO_ID, commandName, versionName, protocolName, streamIdUse,
} from './header.ts';
export type {
  SmpNamedCommand, SmpCommandName, SmpVersion, ProtocolName, StreamIdUse, SmpVersioned, SmpPadded, SmpCommonInput, SmpAddressedWords,
} from './header.ts';
export { ATTRIBUTE_BYTES, ATTRIBUTE_ID, attributeName, vendorFormat, channelName, dataFormatName } from './attribute-kinds.ts';
export type {
  AttributeIdBits, NamedAttribute, AttributeName, VendorFormat, ChannelName, DataFormatName, SmpAttribute, AttributeLike, VendorAttribute,
  OpaqueAttribute, ConveyanceAttribute, MtuAttribute, DataOffsetAttribute, MacAddressAttribute, PeriodAttribute, OpenMessageNumberAttribute,
  ConduitStreamAttribute, DataHeaderFormatAttribute,
} from './attribute-kinds.ts';
export {
  smpAttribute, vendorValue, attrVendor, attrDataOffsetVendor, attrProtocolName, attrConveyance, attrConveyanceMailbox, attrMtu, attrDataOffset,
  attrMacAddress, attrPeriod, attrOpenMessageNumber, attrConduitStream, attrDataHeaderFormat,
} from './attribute-build.ts';
export type { VendorValue } from './attribute-build.ts';
export { PROTOCOL_REQUIRED, checkAttributeOrder } from './attribute-order.ts';
export type { AttributeRule, AttributeViolation } from './attribute-order.ts';
export { advertiseVariant, smpRequest, smpAdvertise, smpAdvertiseUnsupported, smpAdvertiseProtocols, smpAdvertiseAttributes } from './request-advertise.ts';
export type { SmpRequest, SmpAdvertise, SmpAdvertiseList, SmpAdvertiseAttributes, SmpProtocolEntry, SmpProtocolBlock, AdvertiseVariant } from './request-advertise.ts';
export { ackTypeName, REFUSE_FILL, smpOpen, smpAccept, smpRefuse } from './open-accept-refuse.ts';
export type { SmpOpen, SmpAccept, SmpRefuse, AckTypeName } from './open-accept-refuse.ts';
export { FLOW_CONTROL, flowControlName, smpFlowControl } from './flow-control.ts';
export type { SmpFlowControl, FlowControlName } from './flow-control.ts';
export { smpClose } from './close.ts';
export type { SmpClose } from './close.ts';
export { STATUS_BIT, STATUS_RESERVED, statusFlags, statusFromFlags } from './status.ts';
export type { SmpStatus, SmpStatusInput, SmpStreamProtocol, StatusFlag } from './status.ts';
export { smpUserDefined } from './userdefined.ts';
export type { SmpUserDefined } from './userdefined.ts';
export { DATA2_MAX_PAYLOAD, segmentName, smpData, smpData1, smpData2 } from './data.ts';
export type { SmpData, SmpData1, SmpData2, SegmentName, DataInput } from './data.ts';
