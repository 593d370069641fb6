import { z } from 'zod';
import { TM_MODE_SETTINGS, TM_TYPES_SETTINGS, typesSupporting } from '../../streaming/tm-mode.ts';
import type { TmModeSetting, TmTypesSetting } from '../../streaming/tm-mode.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import type { EngineOutput } from './adapter.ts';
import { renderOutput } from './adapter.ts';
import { renderPacket, type9Packet } from './packets.ts';
import { deviceId, expecting, flowId, int, maxDeviceId, oneOf, tt } from './schema.ts';

/**
 * zod pieces shared by the `tm-ingress` and `tm-egress` adapters (src/streaming/tm-types.ts):
 * the common config fields, stream targets, queue granularity, TM packets in and out, and the
 * user and application commands both ends may send.
 */

export const tmMode = oneOf(TM_MODE_SETTINGS as unknown as [TmModeSetting, ...TmModeSetting[]]);
export const tmTypes = oneOf(TM_TYPES_SETTINGS as unknown as [TmTypesSetting, ...TmTypesSetting[]]);

/** TmCommonConfig without `registers`, which has no JSON form (the mode is the config's). */
export const commonShape = {
  localID: deviceId.default(0),
  tt: tt.default(0),
  mode: tmMode.default('BASIC'),
  types: tmTypes.optional(),
};

export interface CommonConfig {
  readonly localID: number;
  readonly tt: number;
  readonly mode: TmModeSetting;
  readonly types: TmTypesSetting;
}

type Ctx = z.core.$RefinementCtx;

/** localID must fit tt (Part 3 §2.4); types, when given, must support the mode. */
export function refineCommon(c: { readonly localID: number; readonly tt: number; readonly mode: TmModeSetting; readonly types?: TmTypesSetting | undefined }, ctx: Ctx): void {
  const max = maxDeviceId(c.tt);
  if (c.localID > max) ctx.addIssue({ code: 'custom', path: ['localID'], message: `expected a device ID 0..${max} (tt ${c.tt})` });
  const ok = typesSupporting(c.mode);
  if (c.types !== undefined && !ok.includes(c.types)) {
    ctx.addIssue({ code: 'custom', path: ['types'], message: `expected TM types that support mode ${c.mode} (${ok.join(', ')})` });
  }
}

/** The common fields with `types` filled in: "the fewest types that do" (tm-types.ts). */
export function effectiveCommon(c: { readonly localID: number; readonly tt: number; readonly mode: TmModeSetting; readonly types?: TmTypesSetting | undefined }): CommonConfig {
  return { localID: c.localID, tt: c.tt, mode: c.mode, types: c.types ?? (typesSupporting(c.mode)[0] as TmTypesSetting) };
}

/** classifier.ts StreamTarget: Table 4-1 cos (8 bits) and streamID (16 bits), a Part 9 flowID. */
export const streamTarget = z.strictObject({
  destinationID: deviceId,
  cos: int(0, 0xff),
  streamID: int(0, 0xffff),
  flowID: flowId,
}, { error: expecting('a stream target {destinationID, cos, streamID, flowID}') });

/** classifier.ts QueueGranularity; class bins default to the whole cos (§3.3). */
export const granularity = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('stream') }),
  z.strictObject({ mode: z.literal('class'), cosBits: int(0, 8).default(8) }),
], { error: expecting("{mode: 'stream'} or {mode: 'class', cosBits: 0..8}") });

export const DEFAULT_GRANULARITY = { mode: 'class', cosBits: 8 } as const;

/** Every device ID in `targets` fits tt (Part 3 §2.4). */
export function refineTargets(targets: readonly { readonly path: readonly (string | number)[]; readonly destinationID: number }[], t: number, ctx: Ctx): void {
  const max = maxDeviceId(t);
  for (const x of targets) {
    if (x.destinationID > max) ctx.addIssue({ code: 'custom', path: [...x.path, 'destinationID'], message: `expected a device ID 0..${max} (tt ${t})` });
  }
}

/**
 * A received TM packet: a Type 9 packet as hex or `decode --json` object, strictly decoded unless
 * lenient (so reserved TM OPs and parameters and invalid operands are bad lines; with `--lenient`
 * they reach the engine, which reports them). A data segment also reaches the engine, which counts
 * it as `not-tm`, as the reassembler counts TM packets as `not-data`.
 */
export function tmInputPacket(value: unknown, lenient: boolean): Type9TmPacket {
  return type9Packet(value, lenient) as Type9TmPacket;
}

/** A TM packet to send prints as a `send` does: the `decode --json` object and the serial hex (docs/model.md Output lines). */
export function renderTm(o: EngineOutput): Record<string, unknown> {
  if (o.kind === 'tm' && 'packet' in o) return { kind: 'tm', ...renderPacket((o as { readonly packet: Type9TmPacket }).packet) };
  return renderOutput(o);
}

/** tm-types.ts TmUserCommand: parameter 2 0x01–0xFE under parameter 1 = 0 (Tables 4-4..4-6), or TM OP 0b0011 raw. */
export const userCommands = [
  z.strictObject({ message: z.literal('USER_DEFINED'), tmOp: int(0, 2), value: int(1, 0xfe) }),
  z.strictObject({ message: z.literal('APPLICATION_DEFINED'), parameter1: int(0, 0xff), parameter2: int(0, 0xff) }),
] as const;
