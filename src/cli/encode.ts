import { WireError, WireErrorCode } from '../wire/errors.ts';
import { toHex } from '../wire/hex.ts';
import { encodeChecked } from './encode-item.ts';
import { items } from './input.ts';
import { reportBad } from './decode.ts';
import type { CodecFlags } from './codec-flags.ts';

/**
 * `riodp encode`: JSON objects (as `decode --json` prints them) to hex, one line each. Strict
 * like `decode` unless --lenient; a bad item is reported as decode reports one.
 */
export async function runEncode(args: readonly string[], flags: CodecFlags): Promise<number> {
  let bad = 0;
  for await (const item of items(args)) {
    try {
      let json: unknown;
      try {
        json = JSON.parse(item.text);
      } catch (e) {
        throw new WireError(WireErrorCode.invalid, 'json', 0, 'docs/cli.md', `not JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      process.stdout.write(`${toHex(encodeChecked(json, flags))}\n`);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      bad++;
      reportBad(args.length > 0 ? 'argument' : 'line', item.index, e);
    }
  }
  return bad > 0 ? 1 : 0;
}
