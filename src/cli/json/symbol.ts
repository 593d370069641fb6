import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { WireError, WireErrorCode } from '../../wire/errors.ts';
import { buildSymbol } from '../../wire/symbol.ts';
import type { ControlSymbol, SymbolFields } from '../../wire/symbol.ts';
import {
  CAUSE_NAMES,
  CMD_NAMES,
  LINKS,
  PORT_STATUS_NAMES,
  STYPE0_NAMES,
  STYPE1_NAMES,
  Stype0,
  causeOf,
  cmdOf,
  parameterBits,
  portStatusOf,
} from '../../wire/symbol-types.ts';
import type { CauseName, Link, PortStatusName } from '../../wire/symbol-types.ts';
import { VOQ_FORMATS, VoqCmdName, encodeStype2, groupOfPort } from '../../wire/voq-stype2.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { parseWith, uint } from './common.ts';

/**
 * JSON input for control symbols (docs/cli/symbols.md): exactly what `toJsonValue(decodeSymbol(…))`
 * prints. Raw fields (stype0, parameter0, …, stype2) and their labels (stype0Name, packetAckID,
 * voq, …) are each optional when the other gives the value; whatever is given must agree with
 * the symbol the raw fields make, or the input is rejected naming the field.
 */
export const CLAUSE_SYMBOL_JSON = 'docs/cli/symbols.md';

const names = <T extends string>(list: readonly T[]) => z.enum(list as [T, ...T[]]);

const voqSchema = z.strictObject({
  format: z.enum(VOQ_FORMATS).optional(),
  portGroupSize: uint(3).optional(),
  cmd: uint(3).optional(),
  cmdName: z.enum([VoqCmdName.nop, VoqCmdName.backpressure, VoqCmdName.reserved]).optional(),
  portGroup: uint(6).optional(),
  portStatus: uint(13).optional(),
  congestedPorts: z.array(uint(16)).optional(),
});
type VoqJson = z.infer<typeof voqSchema>;

const symbolSchema = z.strictObject({
  link: z.enum(LINKS).optional(),
  stype0: uint(3).optional(),
  stype0Name: z.enum(STYPE0_NAMES).optional(),
  parameter0: uint(6).optional(),
  parameter1: uint(6).optional(),
  packetAckID: uint(6).optional(),
  ackIDStatus: uint(6).optional(),
  bufStatus: uint(6).optional(),
  vcid: uint(3).optional(),
  cause: uint(5).optional(),
  causeName: names<CauseName>(CAUSE_NAMES).optional(),
  portStatus: uint(5).optional(),
  portStatusName: names<PortStatusName>(PORT_STATUS_NAMES).optional(),
  startFlag: uint(1).optional(),
  endFlag: uint(1).optional(),
  timestamp: uint(8).optional(),
  delay: uint(12).optional(),
  rsrv0: uint(3).optional(),
  rsrv1: uint(1).optional(),
  stype1: uint(3).optional(),
  stype1Name: z.enum(STYPE1_NAMES).optional(),
  cmd: uint(3).optional(),
  cmdName: z.enum(CMD_NAMES).optional(),
  stype2: uint(14).optional(),
  voq: voqSchema.optional(),
  crc: uint(13).optional(),
});
type SymbolJson = z.infer<typeof symbolSchema>;

export interface SymbolJsonOptions {
  readonly link?: Link;
  readonly voqFormat?: VoqFormat;
  readonly part12GroupSize?: number;
  readonly strict?: boolean;
}

/** Reads a control symbol from JSON; the result encodes with `encodeSymbol`. */
export function symbolFromJson(json: unknown, opts: SymbolJsonOptions = {}): ControlSymbol {
  const j = parseWith(symbolSchema, json);
  const link = agree('link', j.link, opts.link) ?? fail('link', 'link is required');
  const voqFormat = agree('voq.format', j.voq?.format, opts.voqFormat) ?? 'seed';
  const groupSize = voqFormat === 'seed' ? 0 : (agree('voq.portGroupSize', j.voq?.portGroupSize, opts.part12GroupSize) ?? 0);
  const stype0 = j.stype0 ?? indexOf(STYPE0_NAMES, j.stype0Name) ?? fail('stype0', 'stype0 or stype0Name is required');
  const stype1 = j.stype1 ?? indexOf(STYPE1_NAMES, j.stype1Name) ?? fail('stype1', 'stype1 or stype1Name is required');
  const w = parameterBits(link);
  const fields: SymbolFields = {
    link,
    stype0,
    parameter0: j.parameter0 ?? parameter0Of(stype0, j, w) ?? fail('parameter0', `parameter0 or its meaning for stype0 ${stype0} is required`),
    parameter1: j.parameter1 ?? parameter1Of(stype0, j, w) ?? fail('parameter1', `parameter1 or its meaning for stype0 ${stype0} is required`),
    stype1,
    cmd: j.cmd ?? (j.cmdName === undefined ? undefined : cmdOf(stype1, j.cmdName)) ?? fail('cmd', 'cmd, or a cmdName defined for this stype1, is required'),
  };
  const stype2 = j.stype2 ?? (link === 'cs48' ? stype2Of(j.voq, voqFormat, groupSize) : undefined);
  const canon = buildSymbol(stype2 === undefined ? fields : { ...fields, stype2 }, {
    voqFormat,
    part12GroupSize: groupSize,
    ...(opts.strict === undefined ? {} : { strict: opts.strict }),
  });
  compare(j, canon, '');
  return canon;
}

function parameter0Of(stype0: number, j: SymbolJson, w: number): number | undefined {
  switch (stype0) {
    case Stype0.packetAccepted:
    case Stype0.packetRetry:
      return j.packetAckID;
    case Stype0.packetNotAccepted:
    case Stype0.status:
    case Stype0.linkResponse:
      return j.ackIDStatus;
    case Stype0.timestamp:
      if (j.delay !== undefined) return j.delay >> w;
      if (j.startFlag === undefined || j.endFlag === undefined || j.timestamp === undefined) return undefined;
      return (j.startFlag << 4) | (j.endFlag << 3) | (j.timestamp >> 5);
    case Stype0.vcStatus:
      return j.vcid === undefined ? undefined : ((j.rsrv0 ?? 0) << 3) | j.vcid;
    default:
      return undefined;
  }
}

function parameter1Of(stype0: number, j: SymbolJson, w: number): number | undefined {
  switch (stype0) {
    case Stype0.packetAccepted:
    case Stype0.packetRetry:
    case Stype0.status:
    case Stype0.vcStatus:
      return j.bufStatus;
    case Stype0.packetNotAccepted: {
      const cause = j.cause ?? (j.causeName === undefined ? undefined : causeOf(j.causeName));
      return cause === undefined ? undefined : ((j.rsrv1 ?? 0) << 5) | cause;
    }
    case Stype0.linkResponse: {
      const status = j.portStatus ?? (j.portStatusName === undefined ? undefined : portStatusOf(j.portStatusName));
      return status === undefined ? undefined : ((j.rsrv1 ?? 0) << 5) | status;
    }
    case Stype0.timestamp:
      if (j.delay !== undefined) return j.delay & ((1 << w) - 1);
      return j.timestamp === undefined ? undefined : j.timestamp & 0x1f;
    default:
      return undefined;
  }
}

/** stype2 from the voq object; 0 (the reserved field's transmitted value) when absent. */
function stype2Of(voq: VoqJson | undefined, format: VoqFormat, groupSize: number): number {
  if (voq === undefined) return 0;
  const backpressure = 1;
  const cmd =
    voq.cmd ??
    (voq.cmdName === VoqCmdName.backpressure ? backpressure : voq.cmdName === VoqCmdName.nop ? 0 : undefined) ??
    fail('voq.cmd', 'voq.cmd, or voq.cmdName NOP or VOQ_BACKPRESSURE, is required');
  let portGroup = voq.portGroup;
  let portStatus = voq.portStatus;
  if (voq.congestedPorts !== undefined && voq.congestedPorts.length > 0 && portStatus === undefined) {
    // Ports are spread back to status bits; they must all lie in one group.
    let status = 0;
    for (const port of voq.congestedPorts) {
      const { group, offset } = groupOfPort(port, format, groupSize);
      portGroup ??= group;
      if (group !== portGroup) fail('voq.congestedPorts', `port ${port} is not in port group ${portGroup}`);
      status |= 1 << offset;
    }
    portStatus = status;
  }
  return encodeStype2({ format, portGroupSize: groupSize, cmd, portGroup: portGroup ?? 0, portStatus: portStatus ?? 0 });
}

/** Every field given in the JSON must equal the canonical symbol's. */
function compare(given: object, canon: object, prefix: string): void {
  const c = canon as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const path = prefix + key;
    const want = c[key];
    if (want === undefined) fail(path, `${path} does not apply to this symbol`);
    if (key === 'voq') {
      compare(value as object, want as object, 'voq.');
      continue;
    }
    const same = key === 'congestedPorts' ? isDeepStrictEqual(sortedUnique(value as number[]), want) : isDeepStrictEqual(value, want);
    if (!same) {
      const code = key === 'crc' ? WireErrorCode.crc : WireErrorCode.invalid;
      throw new WireError(code, path, 0, CLAUSE_SYMBOL_JSON, `${path} ${JSON.stringify(value)} disagrees with the raw fields, which give ${JSON.stringify(want)}`);
    }
  }
}

function sortedUnique(ports: readonly number[]): number[] {
  return [...new Set(ports)].sort((a, b) => a - b);
}

function agree<T extends string | number>(field: string, fromJson: T | undefined, fromOpts: T | undefined): T | undefined {
  if (fromJson !== undefined && fromOpts !== undefined && fromJson !== fromOpts) {
    fail(field, `${field} ${String(fromJson)} in the JSON disagrees with the option ${String(fromOpts)}`);
  }
  return fromJson ?? fromOpts;
}

function indexOf(list: readonly string[], name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const i = list.indexOf(name);
  return i < 0 ? undefined : i;
}

function fail(field: string, detail: string): never {
  throw new WireError(WireErrorCode.invalid, field, 0, CLAUSE_SYMBOL_JSON, detail);
}
