import { z } from 'zod';
import { ssizeFor, type11FromFields } from '../../wire/type11.ts';
import type { Type11Packet } from '../../wire/type11.ts';
import { checkAgreement, hexBytes, parseWith, required, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

/**
 * JSON form of Type 11 MESSAGE packets (docs/cli.md): what
 * `toJsonValue(decodeType11(...))` prints. `segmentSize` may stand in for `ssize`, and
 * `mailbox` for `mbox` (and `xmbox` when msglen = 0); labels given must agree with the raw fields.
 */
const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(11),
  destinationID: deviceId,
  sourceID: deviceId,
  msglen: uint(4),
  ssize: uint(4).optional(),
  letter: uint(2),
  mbox: uint(2).optional(),
  msgseg: uint(4).optional(),
  xmbox: uint(4).optional(),
  segmentSize: z.union([uint(9), z.literal('RESERVED')]).optional(),
  mailbox: uint(6).optional(),
  payload: hexBytes.optional(),
  // Printed by serial decoding; encode computes the CRCs.
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});

export function type11FromJson(json: unknown): Type11Packet {
  const j = parseWith(schema, json);
  const single = j.msglen === 0;
  const bySize = typeof j.segmentSize === 'number' ? ssizeFor(j.segmentSize) : undefined;
  const ssize = required(j.ssize ?? bySize, 'ssize', 'unless segmentSize is a standard size (8–256 bytes)');
  const mbox = required(j.mbox ?? (j.mailbox === undefined ? undefined : j.mailbox & 3), 'mbox', 'unless mailbox is given');
  const msgsegXmbox = single
    ? required(j.xmbox ?? (j.mailbox === undefined ? undefined : j.mailbox >> 2), 'xmbox', 'in a single-packet message unless mailbox is given')
    : required(j.msgseg, 'msgseg', 'in a multiple-packet message (msglen > 0)');
  const p = type11FromFields({
    ackID: j.ackID,
    vc: j.vc,
    crf: j.crf,
    prio: j.prio,
    tt: j.tt,
    ftype: 11,
    destinationID: j.destinationID,
    sourceID: j.sourceID,
    msglen: j.msglen,
    ssize,
    letter: j.letter,
    mbox,
    msgsegXmbox,
    payload: j.payload ?? new Uint8Array(0),
  });
  checkAgreement(j, p, single ? 'a single-packet MESSAGE' : 'a multiple-packet MESSAGE');
  return p;
}
