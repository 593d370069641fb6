import { EF_ID, walkExtendedFeatures } from './ef-chain.ts';
import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, checkedField, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { DESTINATION_OPERATIONS_OFFSET, OPERATIONS_BITS, SOURCE_OPERATIONS_OFFSET } from './operations.ts';
import { SESSION_BLOCK, conveyanceName } from './session-block.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

/**
 * Component Tag CSR (0x6C, Part 3 §3.5.4 Table 3-8: component_tag, reset all 0s) and its
 * deprecated use for session management advertisement (Annex 2 §5.3 Table 5-6) with DECISIONS §7's
 * layout: bit 0 Sess_Mgmt_Sup, bits 1–2 Sess_Mgmt_Chan, bits 3–15 Sess_Mgmt_Chan_Info (13 bits).
 * Type 11: `00000` + 8-bit mailbox. Type 9: `x` + `0000` + 8-bit StreamID LSB, x = 1 meaning
 * StreamID MSB 0xFF (0b1_0000_11110000 → StreamID 0xFFF0). Bits 16–31 stay the component tag.
 *
 * @example
 * ```ts
 * import { COMPONENT_TAG_OFFSET, buildEndpointRegisters, decodeComponentTag } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ messaging: true, componentTag: 0xbeef, session: { componentTag: { conveyance: 'MESSAGING', mailbox: 2 } } });
 * const tag = decodeComponentTag(space.readWord(COMPONENT_TAG_OFFSET)); // the word is 0x8002BEEF
 * console.log(tag.sessMgmtChanName, tag.mailbox, tag.componentTagLow.toString(16)); // MESSAGING 2 beef
 * ```
 */
export const COMPONENT_TAG_OFFSET = 0x6c;
export const CLAUSE_COMPONENT_TAG = 'Annex 2 §5.3 Table 5-6';
const CLAUSE_PART3 = 'Part 3 §3.5.4 Table 3-8';
const CLAUSE_RULES = 'Annex 2 §5.3';

/**
 * Sess_Mgmt_Chan values (Annex 2 §5.3 Table 5-6).
 *
 * @example
 * ```ts
 * import { COMPONENT_TAG_OFFSET, SESS_MGMT_CHAN, buildEndpointRegisters, componentTagView } from 'riodp/registers';
 *
 * // The element's software advertises Type 11 mailbox 5 ("00000" + the 8-bit mailbox).
 * const space = buildEndpointRegisters({ messaging: true });
 * componentTagView.update(space, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChan: SESS_MGMT_CHAN.messaging, sessMgmtChanInfo: 5 });
 * space.readWord(COMPONENT_TAG_OFFSET); // → 0x80050000
 * ```
 */
export const SESS_MGMT_CHAN = { messaging: 0b00, dataStreaming: 0b01, reserved: 0b10, expansion: 0b11 } as const;

/** Zero bits of Sess_Mgmt_Chan_Info (as a word mask) per channel. */
const CHAN_INFO_ZERO = { MESSAGING: fieldMask(3, 5), DATA_STREAMING: fieldMask(4, 4) } as const;

/**
 * With Sess_Mgmt_Sup = 1, bits 0-15 must be an advertisement strict decoding accepts: channel
 * 0b00 or 0b01 (0b10 reserved, 0b11 a reserved expanded field) and the channel's zero bits 0.
 * With Sess_Mgmt_Sup = 0 "this specification puts no requirements on the remaining bits".
 */
function advertisementProblem(_v: number, word: number): string | undefined {
  if (getField(word, 0, 1) === 0) return undefined;
  const chan = getField(word, 1, 2);
  if (chan === SESS_MGMT_CHAN.reserved) return 'Sess_Mgmt_Chan 0b10 is reserved';
  if (chan === SESS_MGMT_CHAN.expansion) return 'the expanded Sess_Mgmt_Chan field (0b11) is reserved';
  const zero = (word & CHAN_INFO_ZERO[chan === SESS_MGMT_CHAN.messaging ? 'MESSAGING' : 'DATA_STREAMING']) >>> 0;
  return zero === 0 ? undefined : `Sess_Mgmt_Chan_Info bits that must be 0 are 0x${zero.toString(16).padStart(8, '0')}`;
}

/**
 * The Component Tag CSR's session management fields (Annex 2 §5.3 Table 5-6).
 *
 * @example
 * ```ts
 * import { COMPONENT_TAG_OFFSET, SESS_MGMT_CHAN, attemptRegister, buildEndpointRegisters, componentTagView } from 'riodp/registers';
 *
 * componentTagView.unpack(0x8002beef); // → { sessMgmtSup: true, sessMgmtChan: 0, sessMgmtChanInfo: 2, componentTagLow: 0xbeef, rsrv: 0 }
 * const space = buildEndpointRegisters({ messaging: true });
 * const r = attemptRegister(() => componentTagView.update(space, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChan: SESS_MGMT_CHAN.reserved }));
 * if (!r.ok) console.log(r.error.detail); // Sess_Mgmt_Chan 0b10 is reserved
 * ```
 */
export const componentTagView = new RegisterView('Component Tag CSR', CLAUSE_COMPONENT_TAG, {
  sessMgmtSup: checkedField(0, 1, advertisementProblem),
  sessMgmtChan: checkedField(1, 2, advertisementProblem),
  sessMgmtChanInfo: checkedField(3, 13, advertisementProblem),
  componentTagLow: { bit: 16, width: 16 },
} as const);
/**
 * The name of each Sess_Mgmt_Chan value, indexed by it.
 *
 * @example
 * ```ts
 * import { SESS_MGMT_CHAN_NAMES, componentTagView } from 'riodp/registers';
 *
 * SESS_MGMT_CHAN_NAMES[componentTagView.unpack(0xb0f00000).sessMgmtChan]; // → 'DATA_STREAMING'
 * ```
 */
export const SESS_MGMT_CHAN_NAMES = ['MESSAGING', 'DATA_STREAMING', 'RESERVED', 'EXPANSION'] as const;
/** The name of a Sess_Mgmt_Chan value. */
export type SessMgmtChanName = (typeof SESS_MGMT_CHAN_NAMES)[number];

/** A decoded Component Tag CSR: its fields, and the contact they advertise. */
export type ComponentTag = Unpacked<typeof componentTagView.fields> & {
  /** null when Sess_Mgmt_Sup is 0: "This field is only valid if Sess_Mgmt_Sup is 0b1". */
  readonly sessMgmtChanName: SessMgmtChanName | null;
  readonly mailbox: number | null;
  readonly streamId: number | null;
};

/**
 * Decodes a Component Tag CSR word; `opts.strict` refuses reserved or invalid values.
 *
 * @example
 * ```ts
 * import { decodeComponentTag } from 'riodp/registers';
 *
 * // Sess_Mgmt_Sup 1, channel 0b01 (Type 9), x = 1 and StreamID LSB 0xF0: the contact is stream 0xFFF0.
 * decodeComponentTag(0xb0f00000, { strict: true }).streamId; // → 0xfff0
 * decodeComponentTag(0x0000beef).sessMgmtChanName;           // → null: no advertisement, a plain component tag
 * ```
 */
export function decodeComponentTag(word: number, opts: ViewDecodeOptions = {}): ComponentTag {
  const f = componentTagView.unpack(word);
  const chan = f.sessMgmtSup ? (SESS_MGMT_CHAN_NAMES[f.sessMgmtChan] ?? 'RESERVED') : null;
  const value: ComponentTag = {
    ...f,
    sessMgmtChanName: chan,
    mailbox: chan === 'MESSAGING' ? getField(word, 8, 8) : null,
    streamId: chan === 'DATA_STREAMING' ? ((getField(word, 3, 1) === 1 ? 0xff00 : 0) | getField(word, 8, 8)) : null,
  };
  if (opts.strict === true && chan !== null) {
    const reg = componentTagView.register;
    if (chan === 'RESERVED') throw new RegisterError(RegisterErrorCode.reserved, COMPONENT_TAG_OFFSET, `${reg}.sessMgmtChan`, CLAUSE_COMPONENT_TAG, 'Sess_Mgmt_Chan 0b10 is reserved');
    if (chan === 'EXPANSION') throw new RegisterError(RegisterErrorCode.reserved, COMPONENT_TAG_OFFSET, `${reg}.sessMgmtChan`, CLAUSE_COMPONENT_TAG, 'the expanded Sess_Mgmt_Chan field (0b11) is reserved');
    const zero = (word & CHAN_INFO_ZERO[chan]) >>> 0;
    if (zero !== 0) throw new RegisterError(RegisterErrorCode.reserved, COMPONENT_TAG_OFFSET, `${reg}.sessMgmtChanInfo`, CLAUSE_COMPONENT_TAG, `bits that must be 0 are 0x${zero.toString(16).padStart(8, '0')}`);
  }
  return value;
}

/**
 * The Component Tag CSR word of its fields.
 *
 * @example
 * ```ts
 * import { SESS_MGMT_CHAN, encodeComponentTag } from 'riodp/registers';
 *
 * // Advertise StreamID 0xFFF0: x = 1 (bit 3, the 0x1000 of the 13-bit info) and the LSB 0xF0.
 * encodeComponentTag({ sessMgmtSup: true, sessMgmtChan: SESS_MGMT_CHAN.dataStreaming, sessMgmtChanInfo: 0x1000 | 0xf0, componentTagLow: 0, rsrv: 0 });
 * // → 0xb0f00000
 * ```
 */
export function encodeComponentTag(value: Unpacked<typeof componentTagView.fields>): number {
  return componentTagView.pack(value, COMPONENT_TAG_OFFSET);
}

/** A contact the Component Tag CSR advertises: a Type 11 mailbox or a Type 9 stream. */
export type ComponentTagAdvertisement =
  | { readonly conveyance: 'MESSAGING'; readonly mailbox: number }
  | { readonly conveyance: 'DATA_STREAMING'; readonly streamId: number };

/** The word advertising session management; `componentTagLow` fills bits 16–31. */
export function componentTagWord(adv: ComponentTagAdvertisement, componentTagLow = 0): number {
  const fail = (detail: string): never => {
    throw new RegisterError(RegisterErrorCode.invalid, COMPONENT_TAG_OFFSET, componentTagView.register, CLAUSE_COMPONENT_TAG, detail);
  };
  const fits = (v: number, bits: number): boolean => Number.isInteger(v) && v >= 0 && v < 2 ** bits;
  if (!fits(componentTagLow, 16)) fail(`component tag bits 16-31 value ${String(componentTagLow)} does not fit in 16 bits`);
  if (adv.conveyance === 'MESSAGING') {
    if (!fits(adv.mailbox, 8)) fail(`mailbox ${String(adv.mailbox)} does not fit in 8 bits`);
    return ((1 << 31) | (SESS_MGMT_CHAN.messaging << 29) | (adv.mailbox << 16) | componentTagLow) >>> 0;
  }
  const msb = adv.streamId >>> 8;
  if (!fits(adv.streamId, 16) || (msb !== 0x00 && msb !== 0xff)) fail(`StreamID ${String(adv.streamId)} needs an MSB of 0x00 or 0xFF`);
  const x = msb === 0xff ? 1 : 0;
  return ((1 << 31) | (SESS_MGMT_CHAN.dataStreaming << 29) | (x << 28) | ((adv.streamId & 0xff) << 16) | componentTagLow) >>> 0;
}

export function componentTagRegister(reset = 0): RegisterSpec {
  return { offset: COMPONENT_TAG_OFFSET, name: componentTagView.register, kind: RegisterKind.csr, clause: CLAUSE_PART3, reset: reset >>> 0, writable: 0xffffffff };
}

/**
 * Annex 2 §5.3 conditions for advertising through the Component Tag CSR: "Only devices whose
 * Destination Operations CAR and Source Operations CAR indicate support for Data Message and/or
 * Data Streaming transactions", and only "If a Session Management Protocol Register Block Header
 * does not exist" — except the mixed-system case of §3.3: a block for Type 9 with the Component
 * Tag CSR holding the Type 11 contact.
 */
export function checkComponentTagAdvertisement(space: RegisterSpace, adv: ComponentTagAdvertisement): void {
  const fail = (detail: string): never => {
    throw new RegisterError(RegisterErrorCode.unsupported, COMPONENT_TAG_OFFSET, componentTagView.register, CLAUSE_RULES, detail);
  };
  const needed = (OPERATIONS_BITS.dataMessage | OPERATIONS_BITS.dataStreaming) >>> 0;
  if ((space.readWord(SOURCE_OPERATIONS_OFFSET) & needed) === 0 || (space.readWord(DESTINATION_OPERATIONS_OFFSET) & needed) === 0) {
    fail('Source and Destination Operations CARs must both indicate Data Message or Data Streaming support');
  }
  for (const b of walkExtendedFeatures(space).blocks.filter((blk) => blk.efId === EF_ID.sessionManagement)) {
    const blockConveyance = conveyanceName(space.readWord(b.base + SESSION_BLOCK.advertisement) >>> 28);
    if (!(adv.conveyance === 'MESSAGING' && blockConveyance === 'DATA_STREAMING')) {
      fail(`a Session Management Protocol block exists at 0x${b.base.toString(16)} (${blockConveyance}); only a Type 11 tag beside a Type 9 block is allowed (§3.3)`);
    }
  }
}

/** Checks the conditions, then writes the advertisement keeping bits 16–31 (local write). */
export function setComponentTagAdvertisement(space: RegisterSpace, adv: ComponentTagAdvertisement): void {
  checkComponentTagAdvertisement(space, adv);
  space.writeLocal(COMPONENT_TAG_OFFSET, componentTagWord(adv, space.readWord(COMPONENT_TAG_OFFSET) & 0xffff));
}
