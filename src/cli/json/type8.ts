import { z } from 'zod';
import { TYPE8_TRANSACTION_NAMES, type8DataSize, type8FromFields, type8TransactionName } from '../../wire/type8.ts';
import type { Type8Packet } from '../../wire/type8.ts';
import { checkAgreement, hexBytes, invalidJson, parseWith, required, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

/**
 * JSON form of Type 8 MAINTENANCE packets (docs/cli.md): what
 * `toJsonValue(decodeType8(...))` prints. Every raw field and every label may be given; a label
 * stands in for its raw field when that is missing, and any label given must agree with the
 * raw fields. The fields of all transactions share one schema; those that do not belong to the
 * transaction are refused.
 */
const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(8),
  destinationID: deviceId,
  sourceID: deviceId,
  transaction: uint(4).optional(),
  transactionName: z.enum([...TYPE8_TRANSACTION_NAMES, 'RESERVED']).optional(),
  rdsize: uint(4).optional(),
  wrsize: uint(4).optional(),
  status: uint(4).optional(),
  statusName: z.enum(['DONE', 'ERROR', 'IMPLEMENTATION_DEFINED', 'RESERVED']).optional(),
  sizeOrStatus: uint(4).optional(),
  srcTID: uint(8).optional(),
  targetTID: uint(8).optional(),
  tid: uint(8).optional(),
  hopCount: uint(8).optional(),
  configOffset: uint(21).optional(),
  wdptr: uint(1).optional(),
  rsrv: uint(24).optional(),
  byteCount: z.union([uint(9), z.literal('RESERVED')]).optional(),
  byteLanes: uint(8).optional(),
  byteOffset: uint(24).optional(),
  payload: hexBytes.optional(),
  // Printed by serial decoding; encode computes the CRCs.
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});
type Input = z.output<typeof schema>;

/** rdsize/wrsize and wdptr: the raw fields, or the one row of Table 4-3/4-4 that fits the labels. */
function resolveSize(field: 'rdsize' | 'wrsize', j: Input): { size: number; wdptr: number } {
  const raw = field === 'rdsize' ? j.rdsize : j.wrsize;
  const fits: { size: number; wdptr: number }[] = [];
  for (let wdptr = 0; wdptr < 2; wdptr++) {
    for (let size = 0; size < 16; size++) {
      const d = type8DataSize(field, wdptr, size);
      if (raw !== undefined && raw !== size) continue;
      if (j.wdptr !== undefined && j.wdptr !== wdptr) continue;
      if (j.byteCount !== undefined && j.byteCount !== d.byteCount) continue;
      if (j.byteLanes !== undefined && j.byteLanes !== d.byteLanes) continue;
      if (j.byteOffset !== undefined && d.byteCount !== 'RESERVED' && j.byteOffset % 8 !== d.laneOffset) continue;
      fits.push({ size, wdptr });
    }
  }
  const [only] = fits;
  if (only === undefined) invalidJson(field, `no row of the ${field} table fits ${field}, wdptr, byteCount, byteLanes and byteOffset`);
  if (fits.length > 1) invalidJson(field, `${field} and wdptr are required (byteCount/byteLanes/byteOffset fit ${fits.length} rows)`);
  return only;
}

export function type8FromJson(json: unknown): Type8Packet {
  const j = parseWith(schema, json);
  const named = j.transactionName === undefined || j.transactionName === 'RESERVED' ? undefined : TYPE8_TRANSACTION_NAMES.indexOf(j.transactionName);
  const transaction = required(j.transaction ?? named, 'transaction', 'unless transactionName names a defined transaction');
  const name = type8TransactionName(transaction);
  let sizeOrStatus: number;
  let tid: number;
  let word: number;
  if (name === 'MAINTENANCE_READ_RESPONSE' || name === 'MAINTENANCE_WRITE_RESPONSE') {
    const byName = j.statusName === 'DONE' ? 0 : j.statusName === 'ERROR' ? 7 : undefined;
    sizeOrStatus = required(j.status ?? byName, 'status', 'unless statusName is DONE or ERROR');
    tid = required(j.targetTID, 'targetTID', `in a ${name}`);
    word = j.rsrv ?? 0;
  } else if (name === 'RESERVED') {
    sizeOrStatus = required(j.sizeOrStatus, 'sizeOrStatus', 'with a reserved transaction');
    tid = required(j.tid, 'tid', 'with a reserved transaction');
    word = j.rsrv ?? 0;
  } else {
    const { size, wdptr } = resolveSize(name === 'MAINTENANCE_READ_REQUEST' ? 'rdsize' : 'wrsize', j);
    const portWrite = name === 'MAINTENANCE_PORT_WRITE_REQUEST';
    // Port-writes: "The srcTID and config_offset fields are reserved" — 0 unless given.
    const configOffset = j.configOffset ?? (j.byteOffset === undefined ? (portWrite ? 0 : undefined) : j.byteOffset >>> 3);
    const rsrv = j.rsrv ?? 0;
    if (rsrv > 3) invalidJson('rsrv', 'rsrv is 2 bits in requests');
    sizeOrStatus = size;
    tid = required(j.srcTID ?? (portWrite ? 0 : undefined), 'srcTID', `in a ${name}`);
    word = (required(configOffset, 'configOffset', 'unless byteOffset is given') << 3) | (wdptr << 2) | rsrv;
  }
  const p = type8FromFields({
    ackID: j.ackID,
    vc: j.vc,
    crf: j.crf,
    prio: j.prio,
    tt: j.tt,
    ftype: 8,
    destinationID: j.destinationID,
    sourceID: j.sourceID,
    transaction,
    sizeOrStatus,
    tid,
    hopCount: j.hopCount ?? 0xff,
    word,
    payload: j.payload ?? new Uint8Array(0),
  });
  checkAgreement(j, p, `a ${name} packet`);
  return p;
}
