/**
 * riodp's file-transfer protocol, carried by `riodp send` and `riodp recv` (issue 8 §2): a
 * vendor-defined protocol of Annex 2 Chapter 6 (ProtoID 0x0101, told apart from other vendors'
 * protocols by its VENDOR and PROTOCOL_NAME attributes, §6.2) on a conduit (§3.4), its data as
 * DATA3 PDUs over Type 9 data streaming (§4.3.4 "no additional header needs to be used").
 *
 * On the sender's stream: one header PDU (name, size, SHA-256), then the file's bytes in PDUs of
 * at most 64 KiB (Part 10 §5.4.3 MaxPDU "0x0000 - 64K"). On the receiver's stream: one result PDU
 * once the file is written and checked. Every field is big-endian.
 *
 * ```
 * header: 'R' 'F' 'T' '1' | 0x01 | name length (16) | name (UTF-8) | size (64) | SHA-256 (32 bytes)
 * result: 'R' 'F' 'T' '1' | 0x02 | status (8) | text length (16) | text (UTF-8)
 * ```
 */
import type { ProtocolSupport } from '../session/types.ts';
import { attrProtocolName, attrVendor } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { PROTO_ID } from '../wire/smp/header.ts';

/** VENDOR: an IEEE OUI (§6.2.1); riodp has none of its own, so the protocol carries 0x000000 with its name. */
export const FILE_TRANSFER_VENDOR = 0x000000;
/** PROTOCOL_NAME (§6.2.2, 56 bits): "RIODPFT". */
export const FILE_TRANSFER_NAME = 'RIODPFT';
export const FILE_TRANSFER_PROTO_ID = PROTO_ID.VENDOR_DEFINED;

/** The attributes an OPEN names the protocol by (§6.2 "These two attributes distinguish a vendor-defined protocol"). */
export const FILE_TRANSFER_ATTRIBUTES: readonly AttributeLike[] = [attrVendor({ oui: FILE_TRANSFER_VENDOR }), attrProtocolName(FILE_TRANSFER_NAME)];

/** What an end point that receives files advertises: DATA3, so the bytes go as Part 10 PDUs. */
export const FILE_TRANSFER_SUPPORT: ProtocolSupport = {
  protoID: FILE_TRANSFER_PROTO_ID,
  attributes: FILE_TRANSFER_ATTRIBUTES,
  dataHeaderFormat: 'DATA3',
};

/** Part 10 §5.4.3: the largest PDU, 64 KiB. */
export const FILE_PDU_MAX = 0x10000;
/** Longest name carried (bytes of UTF-8). */
export const FILE_NAME_MAX = 1024;

const MAGIC = [0x52, 0x46, 0x54, 0x31] as const;
const KIND_HEADER = 1;
const KIND_RESULT = 2;
const SHA256_BYTES = 32;

/**
 * The result's status. 5 to 8 came with issue 16 (a receiver no longer trusts the sender, losses
 * are reported): a sender that knows only 0 to 4 reports them as an unknown status, which is still
 * a failure.
 * - `exists`: the receiver was asked to refuse a name its folder already has;
 * - `too-large`: the header's size is over the receiver's maximum;
 * - `aborted`: the receiver gave the transfer up (its `riodp recv` left, or its end point is closing);
 * - `lost`: PDUs of the file were reported lost on the conduit (Stream.onLoss, decision FF5).
 */
export const FILE_STATUS = { ok: 0, checksum: 1, size: 2, write: 3, header: 4, exists: 5, 'too-large': 6, aborted: 7, lost: 8 } as const;
export type FileStatusName = keyof typeof FILE_STATUS;
const STATUS_NAMES: readonly FileStatusName[] = ['ok', 'checksum', 'size', 'write', 'header', 'exists', 'too-large', 'aborted', 'lost'];

export interface FileHeader {
  readonly name: string;
  readonly size: number;
  /** SHA-256 of the file, 64 hex digits. */
  readonly sha256: string;
}

/** The receiver's verdict on a file transfer, as it sends it back: a status and a text. */
export interface FileResult {
  readonly status: FileStatusName;
  readonly text: string;
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

function hasMagic(b: Uint8Array, kind: number): boolean {
  return b.length >= 5 && MAGIC.every((m, i) => b[i] === m) && b[4] === kind;
}

export function encodeFileHeader(h: FileHeader): Uint8Array {
  const name = utf8.encode(h.name);
  if (name.length === 0 || name.length > FILE_NAME_MAX) throw new RangeError(`name must be 1 to ${FILE_NAME_MAX} bytes of UTF-8`);
  if (!Number.isSafeInteger(h.size) || h.size < 0) throw new RangeError('size must be a non-negative integer');
  if (!/^[0-9a-f]{64}$/.test(h.sha256)) throw new RangeError('sha256 must be 64 lowercase hex digits');
  const out = new Uint8Array(5 + 2 + name.length + 8 + SHA256_BYTES);
  const v = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = KIND_HEADER;
  v.setUint16(5, name.length);
  out.set(name, 7);
  v.setBigUint64(7 + name.length, BigInt(h.size));
  out.set(Buffer.from(h.sha256, 'hex'), 15 + name.length);
  return out;
}

/** A header PDU, or why it is not one (a receiver answers status 'header'). */
export function decodeFileHeader(b: Uint8Array): Decoded<FileHeader> {
  if (!hasMagic(b, KIND_HEADER)) return { ok: false, error: 'not a file header (magic RFT1, kind 1)' };
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 7) return { ok: false, error: 'header too short' };
  const n = v.getUint16(5);
  if (n === 0 || n > FILE_NAME_MAX) return { ok: false, error: `name length ${n} is not 1..${FILE_NAME_MAX}` };
  if (b.length !== 7 + n + 8 + SHA256_BYTES) return { ok: false, error: `header of ${b.length} bytes, expected ${7 + n + 8 + SHA256_BYTES}` };
  let name: string;
  try {
    name = fromUtf8.decode(b.subarray(7, 7 + n));
  } catch {
    return { ok: false, error: 'name is not UTF-8' };
  }
  const size = v.getBigUint64(7 + n);
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, error: 'size beyond 2^53 - 1 bytes' };
  const sha256 = Buffer.from(b.subarray(15 + n, 15 + n + SHA256_BYTES)).toString('hex');
  return { ok: true, value: { name, size: Number(size), sha256 } };
}

export function encodeFileResult(r: FileResult): Uint8Array {
  let text = utf8.encode(r.text);
  if (text.length > 0xffff) text = text.subarray(0, 0xffff);
  const out = new Uint8Array(8 + text.length);
  out.set(MAGIC, 0);
  out[4] = KIND_RESULT;
  out[5] = FILE_STATUS[r.status];
  new DataView(out.buffer).setUint16(6, text.length);
  out.set(text, 8);
  return out;
}

export function decodeFileResult(b: Uint8Array): Decoded<FileResult> {
  if (!hasMagic(b, KIND_RESULT) || b.length < 8) return { ok: false, error: 'not a file result (magic RFT1, kind 2)' };
  const status = STATUS_NAMES[b[5] ?? 0xff];
  if (status === undefined) return { ok: false, error: `status ${b[5]} is not one of 0..${STATUS_NAMES.length - 1}` };
  const n = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint16(6);
  if (b.length !== 8 + n) return { ok: false, error: `result of ${b.length} bytes, expected ${8 + n}` };
  let text: string;
  try {
    text = fromUtf8.decode(b.subarray(8));
  } catch {
    return { ok: false, error: 'text is not UTF-8' };
  }
  return { ok: true, value: { status, text } };
}

/**
 * The file name a receiver writes: the last path component only, so that a sender can name no
 * other folder; '.', '..', empty names and names with NUL are refused (undefined).
 */
export function safeFileName(name: string): string | undefined {
  const base = name.split(/[\\/]/).pop() ?? '';
  if (base === '' || base === '.' || base === '..' || base.includes('\0')) return undefined;
  return base;
}
