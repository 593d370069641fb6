/**
 * `riodp/registers`: the configuration space of a processing element (docs/api.md). A
 * `RegisterSpace` holds the CARs and CSRs that Type 8 MAINTENANCE requests read and write (Part 1
 * §4.1.10), with the access rules of Part 10 §5.3 Table 5-2; the typed views decode and encode the
 * registers riodp uses: the standard CARs/CSRs, the extended features chain (Part 1 §5.3: data
 * streaming, VoQ backpressure, session management, LP-Serial port control) and the Component Tag.
 * `buildEndpointRegisters` builds an end point's space from a description.
 *
 * @module riodp/registers
 */
export { RegisterErrorCode, RegisterError, attemptRegister } from './errors.ts';
export type { RegisterResult } from './errors.ts';
export { RegisterKind, AccessSource, SpaceRegion, CONFIG_SPACE, regionOf, RegisterSpace } from './space.ts';
export type { WriteContext, WriteHook, RegisterSpec, RegisterDef, RegisterChange, RegisterListener } from './space.ts';
export { RegisterView, BoundView, checkedField } from './fields.ts';
export type { FieldSpec, FieldCheck, CheckedField, FieldTable, FieldValue, FieldValues, FieldChanges, Unpacked, ViewDecodeOptions } from './fields.ts';
export { buildEndpointRegisters } from './builder.ts';
export type { EndpointConfig, DataStreamingConfig, VoqConfig, SessionConfig, SessionBlockConfig } from './builder.ts';
export { lockWrite } from './lock.ts';

// The standard CARs and CSRs (Part 1 §5.4, Part 3 §3.5).
export {
  STANDARD_OFFSETS, HOST_LOCK_UNLOCKED, deviceIdentityView, assemblyIdentityView, assemblyInformationView, baseDeviceIdView, hostBaseDeviceIdLockView,
} from './standard.ts';
export type { StandardRegisterOptions } from './standard.ts';
export {
  PE_FEATURES_OFFSET, PE_FEATURES_FIELDS, PE_FEATURES_BITS, EXTENDED_ADDRESSING, peFeaturesView, peFeatures, extendedAddressingName, decodePeFeatures,
  encodePeFeatures,
} from './pe-features.ts';
export type { PeFeatures, ExtendedAddressingName } from './pe-features.ts';
export {
  SOURCE_OPERATIONS_OFFSET, DESTINATION_OPERATIONS_OFFSET, OPERATIONS_FIELDS, OPERATIONS_BITS, OperationsCar, sourceOperationsView,
  destinationOperationsView, sourceOperations, destinationOperations, decodeOperations, encodeOperations,
} from './operations.ts';
export type { Operations } from './operations.ts';

// The extended features chain (Part 1 §5.3) and its blocks.
export {
  ASSEMBLY_INFO_OFFSET, EF_ID, efIdName, isLegalEfPointer, walkEfChain, walkExtendedFeatures, findEfBlocks, expectEfBlock,
} from './ef-chain.ts';
export type { EfBlockSpec, EfPlacement, EfBlockInfo, EfWalk, EfWalkOptions } from './ef-chain.ts';
export {
  DS_INFO_OFFSET, DS_CONTROL_OFFSET, TM_TYPE_BITS, TM_TYPES, TM_MODE, TM_MODE_NAMES, MTU_MIN, MTU_MAX, tmTypesName, tmModeName, mtuBytesFromEncoding,
  mtuEncoding,
} from './data-streaming-fields.ts';
export type { TmTypesName, TmModeName } from './data-streaming-fields.ts';
export {
  DS_INFO_FIELDS, DS_CONTROL_FIELDS, DS_CONTROL_MASKS, dsInfoView, dsInfo, dsControlView, dsControl, decodeDsInfo, encodeDsInfo, decodeDsControl,
  encodeDsControl, setMtuBytes, getMtuBytes,
} from './data-streaming.ts';
export type { DsInfo, DsControl } from './data-streaming.ts';
export {
  LpSerialMap, LP_SERIAL_LAYOUT, PORT_CONTROL_BLOCK_OFFSET, LP_SERIAL_MAX_PORTS, PORT_CONTROL_FIELDS, PORT_CONTROL_BITS,
  INITIALIZED_PORT_WIDTH_NAMES, portControlOffset, portControlView, decodePortControl, encodePortControl, portParticipation,
} from './port-control.ts';
export type { PortControl, InitializedPortWidthName } from './port-control.ts';
export {
  VOQ_LAYOUT, VOQ_SEED_FIELDS, VOQ_PART12_FIELDS, PORT_STATUS_CONTROL, DEFAULT_VOQ_CAPABILITIES, voqPortOffset, voqSeedView, voqPart12View,
  portStatusControl, reflectedPortStatus, decodeVoqPortControl, encodeVoqPortControl, readVoqPortControl, updateVoqPortControl,
} from './voq-block.ts';
export type {
  VoqFormat, PortStatusControl, VoqSeedControl, VoqPart12Control, VoqPortControl, VoqPortCapabilities, VoqSeedChanges, VoqPart12Changes,
} from './voq-block.ts';
export {
  SESSION_BLOCK, CONVEYANCE, NUM_ATTR_NOT_INITIALIZED, conveyanceName, advertisementView, decodeAdvertisement, encodeAdvertisement, attributeRangeView,
  decodeAttributeRange, encodeAttributeRange,
} from './session-csrs.ts';
export type { ConveyanceName, SessionAdvertisement, AdvertisementConfig, AttributeRange } from './session-csrs.ts';
export {
  sessionLockVal, sessionLocked, acquireSessionLock, releaseSessionLock, readSessionAttribute, writeSessionAttribute, readSessionBlock,
  initializeSessionBlock,
} from './session-block.ts';
export type { SessionBlockState } from './session-block.ts';
export {
  COMPONENT_TAG_OFFSET, SESS_MGMT_CHAN, SESS_MGMT_CHAN_NAMES, componentTagView, decodeComponentTag, encodeComponentTag,
} from './component-tag.ts';
export type { SessMgmtChanName, ComponentTag, ComponentTagAdvertisement } from './component-tag.ts';
