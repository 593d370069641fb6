import { z } from 'zod';
import { switchSettingsShape } from '../../node/switch/schema.ts';
import { expecting, real } from '../../config/zod-parts.ts';
import { linkChanges } from './schema-link.ts';
import { time } from './schema-parts.ts';

/**
 * `switches`: settings of chosen switches (issue 20 "per-switch and per-port settings"). A key
 * names switches as the topology does (`s0`, `leaf3`, `spine*`, `m0.0`): a name, a pattern with
 * `*`, or a comma-separated list of these; its value takes any field of the `switch` block, and
 * `ports` sets chosen ports of the switches it names. The names and ports are checked against the
 * built topology (semantic.ts), the merged settings by the `switch` block's rules
 * (switch-overrides.ts).
 */

const shape = switchSettingsShape({ duration: time(), period: time(1) });

/** The link at a port: the fields of `link` it changes (its rate, its delay). */
const portLink = z.strictObject(linkChanges, { error: expecting('link settings {lanes?, baud?, encoding?, propagation?, symbol?}') });

/** A port's own settings: its input buffer, its Part 9 congestion point (`null` = none at this port), and the link attached to it. */
const portOverride = z.strictObject({
  inputBuffer: shape.inputBuffer,
  congestion: shape.congestion.refine((c) => !Array.isArray(c), { error: 'expected one congestion setting or null for a port' }),
  link: portLink.optional(),
}, { error: expecting('port settings {inputBuffer?, congestion?, link?}') });

const portKey = z.string().regex(/^(0|[1-9][0-9]*)$/, { error: 'expected a port number' });

/** One entry of `switches`: the fields of the `switch` block it changes, and its ports' settings. */
export const switchOverride = z.strictObject({
  ...shape,
  speedup: real(1, 1024, 'a crossbar speedup from 1 to 1024').optional(),
  slot: z.union([time(1), z.null()]).optional(),
  ports: z.record(portKey, portOverride, { error: expecting('a mapping of port numbers to {inputBuffer?, congestion?, link?}') }).optional(),
}, { error: expecting('switch settings for the switches this key names') });

export const switchOverrides = z.record(z.string().min(1), switchOverride, { error: expecting('a mapping of switch names (or patterns) to switch settings') });

export type SwitchOverride = z.output<typeof switchOverride>;
export type PortOverride = NonNullable<SwitchOverride['ports']>[string];
