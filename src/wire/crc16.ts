/**
 * CRC-16 of LP-Serial packets (Part 6 §2.4.2): polynomial x^16+x^12+x^5+1 (0x1021), initial
 * value 0xFFFF, most significant bit first, no reflection and no final XOR (DECISIONS.md §1).
 *
 * The fast path is slicing-by-8: T[k][x] is the register after x<<8 has been shifted through
 * 8·(k+1) zero bits, so eight input bytes cost eight table look-ups. The CRC is linear, which
 * is what makes the tables compose; `crc16Bitwise` is the reference the tests compare with.
 */
export const CRC16_POLY = 0x1021;
export const CRC16_INIT = 0xffff;

const SLICES = 8;
const TABLES: Uint16Array[] = buildTables();

function buildTables(): Uint16Array[] {
  const t0 = new Uint16Array(256);
  for (let x = 0; x < 256; x++) {
    let r = x << 8;
    for (let i = 0; i < 8; i++) r = r & 0x8000 ? ((r << 1) ^ CRC16_POLY) & 0xffff : (r << 1) & 0xffff;
    t0[x] = r;
  }
  const tables = [t0];
  for (let k = 1; k < SLICES; k++) {
    const prev = tables[k - 1] as Uint16Array;
    const t = new Uint16Array(256);
    for (let x = 0; x < 256; x++) {
      const p = prev[x] as number;
      t[x] = ((p << 8) & 0xffff) ^ (t0[p >> 8] as number);
    }
    tables.push(t);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES as [
  Uint16Array, Uint16Array, Uint16Array, Uint16Array, Uint16Array, Uint16Array, Uint16Array, Uint16Array,
];

/** Continues a CRC-16 over bytes[start, end). */
export function crc16Update(crc: number, bytes: Uint8Array, start: number, end: number): number {
  let c = crc & 0xffff;
  let i = start;
  const stop8 = end - 7;
  // Table indices are bytes, so every look-up is in range; `!` spares a branch per byte.
  /* eslint-disable @typescript-eslint/no-non-null-assertion */
  while (i < stop8) {
    const b0 = bytes[i]! ^ (c >> 8);
    const b1 = bytes[i + 1]! ^ (c & 0xff);
    c =
      T7[b0]! ^ T6[b1]! ^ T5[bytes[i + 2]!]! ^ T4[bytes[i + 3]!]! ^
      T3[bytes[i + 4]!]! ^ T2[bytes[i + 5]!]! ^ T1[bytes[i + 6]!]! ^ T0[bytes[i + 7]!]!;
    i += 8;
  }
  while (i < end) {
    c = ((c << 8) & 0xffff) ^ T0[(c >> 8) ^ bytes[i]!]!;
    i++;
  }
  /* eslint-enable @typescript-eslint/no-non-null-assertion */
  return c;
}

/**
 * CRC-16 over a packet's bytes[start, end), the first six bits (ackID) treated as zero
 * (Part 6 §2.4: "The code covers the entire packet except for the ackID field").
 */
export function crc16Packet(bytes: Uint8Array, start: number, end: number, seed = CRC16_INIT): number {
  if (end <= start) return seed;
  const first = (bytes[start] as number) & 0x03;
  const c = ((seed << 8) & 0xffff) ^ (T0[(seed >> 8) ^ first] as number);
  return crc16Update(c, bytes, start + 1, end);
}

/** Bit-serial reference, one bit per step, used to check the table-driven path. */
export function crc16Bitwise(bytes: Uint8Array, start: number, end: number, maskAckID = true): number {
  let c = CRC16_INIT;
  for (let i = start; i < end; i++) {
    let b = bytes[i] as number;
    if (maskAckID && i === start) b &= 0x03;
    for (let bit = 7; bit >= 0; bit--) {
      const fb = ((c >> 15) ^ (b >> bit)) & 1;
      c = (c << 1) & 0xffff;
      if (fb) c ^= CRC16_POLY;
    }
  }
  return c;
}
