/**
 * The TM Mode field of a running end point (Data Streaming Logical Layer Control CSR, 0x48, Part 10
 * §5.5.1 Table 5-6 "TM Mode — Traffic Management Mode of operation") and its traffic management
 * engines, for every host: a MAINTENANCE write that leaves a new TM Mode there reaches both engines
 * (their `set-mode`, TmSetModeInput), as a new MTU reaches the segmenter and the reassembler
 * (decision P10). What a mode change does to the engines' state is theirs to say (tm-types.ts
 * TmSetModeInput: kept, the new mode decides what applies).
 *
 * A value the end point cannot run is refused and the field put back to the mode in force, so that
 * it always reads the mode the engines run (docs/conformance.md, Part 10 registers of a running end
 * point): a mode TM Types Supported (read only) does not include — §3.4.5 rule 4 "Any supported
 * modes shall be supported fully" lets an end point run no other — a reserved encoding
 * (0b0101–0b0111: "When a writable bit field is set to a reserved value, device behavior is
 * implementation specific", rev 4.1 §5.3) and a user-defined one (0b1000–0b1111: riodp defines no
 * user mode). An end point without engines runs none but the mode it was built with. The write
 * itself terminates normally (the rest of the word it carried, the MTU, stands), as a write of a
 * read-only bit does (Table 5-2).
 */
import { DS_CONTROL_OFFSET, dsControl, dsControlView, tmModeName, tmTypesName } from '../../registers/data-streaming.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { typesSupporting } from '../../streaming/tm-mode.ts';
import type { TmModeSetting, TmTypesSetting } from '../../streaming/tm-mode.ts';
import type { Packet } from '../../wire/packet.ts';

/** What a MAINTENANCE write did to the TM Mode field. */
export type TmModeWrite =
  | { readonly kind: 'unchanged' }
  /** The field reads `to`: the caller gives it to the engines (`set-mode`). */
  | { readonly kind: 'changed'; readonly from: TmModeSetting; readonly to: TmModeSetting }
  /** `written` was refused (`reason`); the field reads `kept` again. */
  | { readonly kind: 'refused'; readonly written: number; readonly kept: number; readonly reason: string };

const UNCHANGED: TmModeWrite = { kind: 'unchanged' };

/** A write that changed something, as the end point reports it (event `tm`, side `endpoint`): `mode` or `mode-refused`. */
export function tmModeReport(w: TmModeWrite): { readonly name: 'mode' | 'mode-refused'; readonly detail: Readonly<Record<string, unknown>> } | undefined {
  if (w.kind === 'changed') return { name: 'mode', detail: { from: w.from, to: w.to } };
  if (w.kind === 'refused') return { name: 'mode-refused', detail: { written: w.written, kept: w.kept, reason: w.reason } };
  return undefined;
}

/** Whether a received packet is a MAINTENANCE write request, the one thing that changes a running end point's TM Mode field. */
export function isMaintenanceWrite(p: Packet): boolean {
  return p.ftype === 8 && p.transactionName === 'MAINTENANCE_WRITE_REQUEST';
}

export class TmModeRegister {
  readonly #space: RegisterSpace;
  /** Whether the end point runs traffic management engines. */
  readonly #engines: boolean;
  /** The field's value in force; null without the CSR. */
  #field: number | null;

  constructor(space: RegisterSpace, engines: boolean) {
    this.#space = space;
    this.#engines = engines;
    this.#field = space.definition(DS_CONTROL_OFFSET) === undefined ? null : dsControl.get(space, 'tmMode');
  }

  /**
   * After a MAINTENANCE write request was served: a new TM Mode the end point can run is `changed`
   * (the caller gives it to the engines), one it cannot is `refused` and put back.
   */
  written(): TmModeWrite {
    const old = this.#field;
    if (old === null) return UNCHANGED;
    const value = dsControl.get(this.#space, 'tmMode');
    if (value === old) return UNCHANGED;
    const types = tmTypesName(dsControl.get(this.#space, 'tmTypesSupported'));
    const problem = this.#problem(value, types);
    if (problem !== undefined) {
      // The typed local path: `old` is a mode these types support, as it was when it was set.
      dsControlView.update(this.#space, DS_CONTROL_OFFSET, { tmMode: old });
      return { kind: 'refused', written: value, kept: old, reason: problem };
    }
    this.#field = value;
    return { kind: 'changed', from: tmModeName(old) as TmModeSetting, to: tmModeName(value) as TmModeSetting };
  }

  #problem(value: number, types: string): string | undefined {
    const name = tmModeName(value);
    if (name === 'RESERVED') return `TM Mode 0b${value.toString(2).padStart(4, '0')} is reserved`;
    if (name === 'USER_DEFINED') return `TM Mode 0b${value.toString(2).padStart(4, '0')} is a user-defined mode, and this end point defines none`;
    if (!this.#engines) return 'this end point runs no traffic management engines';
    // Here a standard mode, DISABLED to CREDIT_RATE (Table 5-6).
    if (!typesSupporting(name).includes(types as TmTypesSetting)) return `TM Mode ${name} is not supported by TM Types Supported ${types} (Part 10 §3.4.5 rule 4)`;
    return undefined;
  }
}
