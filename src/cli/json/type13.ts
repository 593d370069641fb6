import { z } from 'zod';
import { TYPE13_TRANSACTION, RESPONSE_STATUS, type13FromFields, type13TransactionName } from '../../wire/type13.ts';
import type { Type13Packet } from '../../wire/type13.ts';
import { checkAgreement, hexBytes, parseWith, required, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

/**
 * JSON form of Type 13 RESPONSE packets (docs/cli.md): what
 * `toJsonValue(decodeType13(...))` prints. Names stand in for `transaction` and `status` when
 * they name one value; letter/mbox/msgseg stand in for `targetInfo`. Labels given must agree.
 */
const TRANSACTIONS = { RESPONSE_NO_DATA: TYPE13_TRANSACTION.response, MESSAGE_RESPONSE: TYPE13_TRANSACTION.messageResponse, RESPONSE_WITH_DATA: TYPE13_TRANSACTION.responseWithData } as const;
const STATUSES = { DONE: RESPONSE_STATUS.done, RETRY: RESPONSE_STATUS.retry, ERROR: RESPONSE_STATUS.error } as const;

const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(13),
  destinationID: deviceId,
  sourceID: deviceId,
  transaction: uint(4).optional(),
  transactionName: z.enum(['RESPONSE_NO_DATA', 'MESSAGE_RESPONSE', 'RESPONSE_WITH_DATA', 'RESERVED']).optional(),
  status: uint(4).optional(),
  statusName: z.enum(['DONE', 'RETRY', 'ERROR', 'IMPLEMENTATION_DEFINED', 'RESERVED']).optional(),
  targetTID: uint(8).optional(),
  targetInfo: uint(8).optional(),
  letter: uint(2).optional(),
  mbox: uint(2).optional(),
  msgseg: uint(4).optional(),
  payload: hexBytes.optional(),
  // Printed by serial decoding; encode computes the CRCs.
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});

export function type13FromJson(json: unknown): Type13Packet {
  const j = parseWith(schema, json);
  const tn = j.transactionName;
  const sn = j.statusName;
  const transaction = required(j.transaction ?? (tn === undefined || tn === 'RESERVED' ? undefined : TRANSACTIONS[tn]), 'transaction', 'unless transactionName names a defined transaction');
  const status = required(j.status ?? (sn === 'DONE' || sn === 'RETRY' || sn === 'ERROR' ? STATUSES[sn] : undefined), 'status', 'unless statusName is DONE, RETRY or ERROR');
  const name = type13TransactionName(transaction);
  let target: number;
  if (name === 'MESSAGE_RESPONSE') {
    const { letter, mbox, msgseg } = j;
    const split = letter === undefined || mbox === undefined || msgseg === undefined ? undefined : (letter << 6) | (mbox << 4) | msgseg;
    target = required(j.targetInfo ?? split, 'targetInfo', 'in a MESSAGE_RESPONSE unless letter, mbox and msgseg are given');
  } else {
    target = required(j.targetTID, 'targetTID', `in a ${name}`);
  }
  const p = type13FromFields({
    ackID: j.ackID,
    vc: j.vc,
    crf: j.crf,
    prio: j.prio,
    tt: j.tt,
    ftype: 13,
    destinationID: j.destinationID,
    sourceID: j.sourceID,
    transaction,
    status,
    target,
    payload: j.payload ?? new Uint8Array(0),
  });
  checkAgreement(j, p, `a ${name} packet`);
  return p;
}
