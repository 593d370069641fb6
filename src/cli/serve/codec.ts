import { WireError } from '../../wire/errors.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import { CLI_LINKS, LAYERS, isPortGroupSize } from '../codec-flags.ts';
import type { CodecFlags } from '../codec-flags.ts';
import { encodeChecked } from '../encode-item.ts';
import { toJsonValue } from '../json/output.ts';
import { decodeItem } from '../layers.ts';
import { ServeError, bool, object, onlyFields, oneOf, optionalInt } from './request.ts';
import type { Request } from './request.ts';

/**
 * The `decode` and `encode` requests of `riodp serve`: `riodp decode --json` and `riodp encode` on
 * one item, with the options those commands take as fields of the same names (camelCase). The
 * answers are what the commands print: the decode --json object, the hex.
 */
const FLAG_FIELDS = ['layer', 'link', 'voqFormat', 'voqGroupSize', 'lenient'] as const;

function flags(req: Request): CodecFlags {
  const voqGroupSize = optionalInt(req, 'voqGroupSize', 0);
  if (voqGroupSize !== undefined && !isPortGroupSize(voqGroupSize)) throw new ServeError('request', 'expected a bit count 0..6 (voqGroupSize)');
  return {
    layer: oneOf(req, 'layer', LAYERS, 'serial'),
    link: oneOf(req, 'link', CLI_LINKS, 'cs48'),
    voqFormat: oneOf(req, 'voqFormat', VOQ_FORMATS, 'seed'),
    ...(voqGroupSize === undefined ? {} : { voqGroupSize }),
    lenient: bool(req, 'lenient', false),
  };
}

/** The error response of a codec error: the message `riodp decode` prints, and its parts. */
function wireError(e: WireError): ServeError {
  return new ServeError('wire', e.message, { wire: { code: e.code, field: e.field, offset: e.offset, clause: e.clause } });
}

function codec<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WireError) throw wireError(e);
    throw e;
  }
}

/** `{"op":"decode","hex":…}`: `{"value": <what riodp decode --json prints>}`. */
export function decodeOp(req: Request): Record<string, unknown> {
  onlyFields(req, ['hex', ...FLAG_FIELDS]);
  const f = flags(req);
  const hex = req['hex'];
  if (typeof hex !== 'string') throw new ServeError('request', `${hex === undefined ? 'missing, expected' : 'expected'} the item as a hex string (hex)`);
  return { value: codec(() => toJsonValue(decodeItem(parseHex(hex), f))) };
}

/** `{"op":"encode","value":{…}}`: `{"hex": <what riodp encode prints>}`. */
export function encodeOp(req: Request): Record<string, unknown> {
  onlyFields(req, ['value', ...FLAG_FIELDS]);
  const f = flags(req);
  const value = object(req, 'value');
  return { hex: codec(() => toHex(encodeChecked(value, f))) };
}
