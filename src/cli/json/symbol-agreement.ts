import { isDeepStrictEqual } from 'node:util';
import { invalidJson as fail } from './common.ts';

/**
 * What the control symbol JSON readers (`symbol.ts` for CS24/CS48, `symbol64.ts` for CS64) share:
 * a symbol is built from its raw fields, and every label the JSON also gives must agree with it.
 */

/** A value given both in the JSON and as an option must be the same; either alone is taken. */
export function agree<T extends string | number>(field: string, fromJson: T | undefined, fromOpts: T | undefined): T | undefined {
  if (fromJson !== undefined && fromOpts !== undefined && fromJson !== fromOpts) {
    fail(field, `${field} ${String(fromJson)} in the JSON disagrees with the option ${String(fromOpts)}`);
  }
  return fromJson ?? fromOpts;
}

/** The VoQ fields of a symbol's `voq` object that name congested ports. */
export interface VoqPortsJson {
  readonly portGroup?: number | undefined;
  readonly portStatus?: number | undefined;
  readonly congestedPorts?: readonly number[] | undefined;
}

/**
 * portGroup and portStatus of a `voq` object (0 when absent). Without portStatus, the congested
 * ports are spread back to status bits by `groupOf`; they must all lie in one group.
 */
export function voqGroupStatus(voq: VoqPortsJson, groupOf: (port: number) => { readonly group: number; readonly offset: number }): { portGroup: number; portStatus: number } {
  let portGroup = voq.portGroup;
  let portStatus = voq.portStatus;
  if (voq.congestedPorts !== undefined && voq.congestedPorts.length > 0 && portStatus === undefined) {
    let status = 0;
    for (const port of voq.congestedPorts) {
      const { group, offset } = groupOf(port);
      portGroup ??= group;
      if (group !== portGroup) fail('voq.congestedPorts', `port ${port} is not in port group ${portGroup}`);
      status |= 1 << offset;
    }
    portStatus = status;
  }
  return { portGroup: portGroup ?? 0, portStatus: portStatus ?? 0 };
}

/** Every field given in the JSON but `crc` (which encoding recomputes) must equal the canonical symbol's. */
export function compareWithSymbol(given: object, canon: object, prefix = ''): void {
  const c = canon as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined || (prefix === '' && key === 'crc')) continue;
    const path = prefix + key;
    const want = c[key];
    if (want === undefined) fail(path, `${path} does not apply to this symbol`);
    if (key === 'voq') {
      compareWithSymbol(value as object, want as object, 'voq.');
      continue;
    }
    const same = key === 'congestedPorts' ? isDeepStrictEqual(sortedUnique(value as number[]), want) : isDeepStrictEqual(value, want);
    if (!same) fail(path, `${path} ${JSON.stringify(value)} disagrees with the raw fields, which give ${JSON.stringify(want)}`);
  }
}

function sortedUnique(ports: readonly number[]): number[] {
  return [...new Set(ports)].sort((a, b) => a - b);
}
