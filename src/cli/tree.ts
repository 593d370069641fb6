import { toHex } from '../wire/hex.ts';

/**
 * The readable form of a decoded item: one field per line, nested objects indented, numbers in
 * decimal with hex beside them where hex is how engineers read them (IDs, CRCs, raw fields).
 */
const HEX_FIELDS = /ID$|^id$|crc|Crc|^rsrv|^stype2$|^parameter|^info$|Offset$|^mask$|^portStatus$|^tgtdestinationID$/;

export function formatTree(title: string, length: number, value: object): string {
  const lines = [`${title} (${length} bytes)`];
  walk(value, '  ', lines);
  return lines.join('\n');
}

function walk(value: object, indent: string, lines: string[]): void {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  for (const [k, v] of entries) {
    const label = `${indent}${k.padEnd(width)}  `;
    if (v instanceof Uint8Array) {
      lines.push(`${label}(${v.length} bytes)`, ...hexLines(v, `${indent}  `));
    } else if (Array.isArray(v)) {
      if (v.every((x) => typeof x !== 'object' || x === null)) lines.push(`${label}[${v.map(String).join(', ')}]`);
      else {
        lines.push(`${indent}${k}`);
        v.forEach((x, i) => {
          if (typeof x === 'object' && x !== null) {
            lines.push(`${indent}  [${i}]`);
            walk(x as object, `${indent}    `, lines);
          } else lines.push(`${indent}  [${i}] ${String(x)}`);
        });
      }
    } else if (typeof v === 'object' && v !== null) {
      lines.push(`${indent}${k}`);
      walk(v as object, `${indent}  `, lines);
    } else if (typeof v === 'number' && HEX_FIELDS.test(k) && v > 9) {
      lines.push(`${label}${v} (0x${v.toString(16)})`);
    } else {
      lines.push(`${label}${String(v)}`);
    }
  }
}

/** The whole byte string, 32 bytes a line, so that nothing a user compares against is hidden. */
function hexLines(b: Uint8Array, indent: string): string[] {
  const hex = toHex(b);
  const out: string[] = [];
  for (let i = 0; i < hex.length; i += 64) out.push(`${indent}${hex.slice(i, i + 64)}`);
  return out;
}
