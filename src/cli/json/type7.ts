import { z } from 'zod';
import { FLOW_ID_LABELS, flowIdCode, flowIdLabel } from '../../wire/flow-id.ts';
import { TYPE7_COMMAND, commandHasSeq, type7Command, type7Fam } from '../../wire/type7.ts';
import type { Type7Command, Type7Packet } from '../../wire/type7.ts';
import { invalidJson, parseWith, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

/**
 * JSON input of a Type 7 packet (docs/cli.md): what `riodp decode --json` prints.
 * Each enumerated value comes as a raw field and a label — (xonXoff, fam) with (command, seq),
 * flowIDCode with flowID — and either side may be left out; when both are given they must agree.
 * `crc`/`earlyCrc` from a serial decode are accepted and recomputed on encode.
 */
const COMMANDS = Object.values(TYPE7_COMMAND) as [Type7Command, ...Type7Command[]];
const FLOW_NAMES = [...FLOW_ID_LABELS, 'RESERVED'] as const;

const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(7),
  destinationID: deviceId,
  tgtdestinationID: deviceId,
  xonXoff: uint(1).optional(),
  fam: uint(3).optional(),
  command: z.enum(COMMANDS).optional(),
  seq: uint(1).optional(),
  flowIDCode: uint(7).optional(),
  flowID: z.enum(FLOW_NAMES).optional(),
  soc: uint(1),
  rsrv: uint(4).default(0),
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});

function resolveCommand(j: z.infer<typeof schema>): { xonXoff: number; fam: number } {
  let { xonXoff, fam } = j;
  if (j.command !== undefined && j.command !== 'UNDEFINED') {
    // A raw FAM may supply the Y bit the label leaves out.
    const seq = j.seq ?? (commandHasSeq(j.command) && fam !== undefined ? fam & 1 : undefined);
    const fromLabel = type7Fam(j.command, seq);
    if (xonXoff !== undefined && xonXoff !== fromLabel.xonXoff) invalidJson('xonXoff', `${j.command} has XON/XOFF ${fromLabel.xonXoff}`);
    if (fam !== undefined && fam !== fromLabel.fam) invalidJson('fam', `${j.command}${j.seq === undefined ? '' : ` seq ${j.seq}`} has FAM ${fromLabel.fam}`);
    xonXoff = fromLabel.xonXoff;
    fam = fromLabel.fam;
  }
  if (xonXoff === undefined || fam === undefined) {
    return invalidJson(xonXoff === undefined ? 'xonXoff' : 'fam', 'give xonXoff and fam, or a defined command');
  }
  const derived = type7Command(xonXoff, fam);
  if (j.command !== undefined && j.command !== derived.command) invalidJson('command', `XON/XOFF ${xonXoff} FAM ${fam} is ${derived.command}`);
  if (j.seq !== undefined && j.seq !== derived.seq) {
    invalidJson('seq', derived.seq === undefined ? `${derived.command} has no sequence bit` : `FAM ${fam} has seq ${derived.seq}`);
  }
  return { xonXoff, fam };
}

function resolveFlow(j: z.infer<typeof schema>): number {
  if (j.flowIDCode !== undefined) {
    const label = flowIdLabel(j.flowIDCode);
    if (j.flowID !== undefined && j.flowID !== label) invalidJson('flowID', `flowIDCode ${j.flowIDCode} is ${label}`);
    return j.flowIDCode;
  }
  if (j.flowID === undefined || j.flowID === 'RESERVED') return invalidJson('flowIDCode', 'give flowIDCode, or a flowID other than RESERVED');
  return flowIdCode(j.flowID);
}

export function type7FromJson(json: unknown): Type7Packet {
  const j = parseWith(schema, json);
  const { xonXoff, fam } = resolveCommand(j);
  const flowIDCode = resolveFlow(j);
  const { command, seq } = type7Command(xonXoff, fam);
  return {
    ackID: j.ackID,
    vc: j.vc,
    crf: j.crf,
    prio: j.prio,
    tt: j.tt,
    ftype: 7,
    destinationID: j.destinationID,
    tgtdestinationID: j.tgtdestinationID,
    xonXoff,
    fam,
    command,
    ...(seq === undefined ? {} : { seq }),
    flowIDCode,
    flowID: flowIdLabel(flowIDCode),
    soc: j.soc,
    rsrv: j.rsrv,
  };
}
