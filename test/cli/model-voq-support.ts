import { toHex } from '../../src/wire/hex.ts';
import { encodeSymbol } from '../../src/wire/symbol.ts';
import type { SymbolFields } from '../../src/wire/symbol.ts';
import { encodeSymbol64 } from '../../src/wire/symbol64.ts';
import type { Symbol64Fields } from '../../src/wire/symbol64.ts';
import { riodp } from '../support/spawn.ts';
import { lines } from './output.ts';
import type { JsonLine } from './output.ts';
import { tempFiles } from './traces.ts';

/**
 * What test/cli/model-voq.test.ts drives `riodp model voq-gen` / `voq-rx` with (the driver in
 * process is model-drive.ts): control symbols as hex, and the configurations its tests share.
 */

const newFile = tempFiles('riodp-model-voq-');
export const file = (v: unknown): string => newFile(JSON.stringify(v), 'json');

/** The lines between the header and the end line, error lines left out. */
export const body = (out: readonly JsonLine[]): JsonLine[] => out.slice(1, -1).filter((o) => o['kind'] !== 'error');

/** A CS48 as hex (Part 6 Figure 3-2), CRC-13 computed. */
export function cs48(f: Omit<SymbolFields, 'link'>): string {
  const bytes = new Uint8Array(6);
  encodeSymbol({ link: 'cs48', ...f }, bytes, 0);
  return toHex(bytes);
}

/** Carriers: packet-accepted ackID 3, buf_status 10, and Status ackID_status 4, buf_status 20; stype1 NOP (Table 3-17 0b111). */
export const PA = { stype0: 0, parameter0: 3, parameter1: 10, stype1: 7, cmd: 0 } as const;
export const STATUS = { stype0: 4, parameter0: 4, parameter1: 20, stype1: 7, cmd: 0 } as const;
export const PA_HEX = '0195c0000450';

/** The seed generator of docs/model.md without its detector hysteresis: link 1 generates, every port participates. */
export const GEN = { ports: 12, portSettings: [{ participation: true }, { generation: true, participation: true }, ...Array.from({ length: 10 }, () => ({ participation: true }))] };
/** Two staging queues: downstream ports 0 and 2 co-mingled in queue 0, port 1 in queue 1 (decoder, §2.3). */
export const RX = { ports: [{ queues: 2 }], routes: [{ destID: 16, localPort: 0, downstreamPort: 0 }, { destID: 17, localPort: 0, downstreamPort: 2 }, { destID: 18, localPort: 0, downstreamPort: 1 }] };

/** A CS64 as hex (Part 6 Figure 3-3), CRC-24 computed. */
export function cs64(f: Omit<Symbol64Fields, 'link'>): string {
  const bytes = new Uint8Array(8);
  encodeSymbol64({ link: 'cs64', ...f }, bytes, 0);
  return toHex(bytes);
}
export const decode64 = (hex: string): unknown => JSON.parse(lines(riodp(['decode', '--layer', 'symbol', '--link', 'cs64', '--voq-group-size', '4', '--json', hex]).stdout)[0] ?? '{}') as unknown;
/** Part 12, CS64, TX/RX Port Group Size 4 (16 ports a group, Table 3-4), VCs VC1 and VC5 (Part 6 Table 3-12). */
export const GEN64 = { format: 'part12-rev4.1', symbol: 'cs64', ports: 18, activeVcs: 2, portSettings: { generation: true, participation: true, txPortGroupSize: 4 } };
export const RX64 = { format: 'part12-rev4.1', symbol: 'cs64', vcs: 2, ports: [{ perVcStaging: true, enableVcLinking: true, rxPortGroupSize: 4 }], routes: [{ destID: 17, localPort: 0, downstreamPort: 3 }] };
