/**
 * How a switch's events become log lines (docs/fabric-switch.md "Logs"). One JSON line per
 * element event, its `msg` the event's name and its fields alongside, at a level that says how
 * much an operator should care: a drop the configuration asked for (a sourceID a port does not
 * accept, issue 8 §3) or one that loses traffic is a warning; an input the element could not read
 * is an error; congestion control (XOFF/XON, issue 8 §4 "the log shows XOFF/XON") is information.
 */
import type { Level } from 'pino';
import type { SwitchEvent } from '../node/switch/element.ts';
import type { Logger } from './log.ts';
import type { LogLimiter } from './log-limit.ts';

export { logSuppressed } from './log-limit.ts';

const EVENT_LEVEL: Readonly<Record<SwitchEvent['name'], Level>> = {
  'source-rejected': 'warn',
  'no-route': 'warn',
  'port-down': 'warn',
  'hold-overrun': 'error',
  'maintenance-answered': 'info',
  'maintenance-dropped': 'warn',
  'maintenance-unsupported': 'warn',
  'ccp-sent': 'info',
  'ccp-dropped': 'warn',
  congestion: 'info',
  voq: 'debug',
  'invalid-input': 'error',
};

/** The level an element event is logged at. */
export function eventLevel(event: SwitchEvent): Level {
  if (event.name === 'maintenance-answered' && event.status === 'ERROR') return 'warn';
  return EVENT_LEVEL[event.name];
}

/**
 * Logs an element event; `at` is the element's time (ns of the process's monotonic clock). With
 * `limit`, events of one name and port beyond its burst are counted, not written (log-limit.ts);
 * the next one written carries `suppressed`, the number left out before it.
 */
export function logSwitchEvent(log: Logger, at: number, event: SwitchEvent, limit?: LogLimiter): void {
  const level = eventLevel(event);
  if (!log.isLevelEnabled(level)) return;
  const { name, ...fields } = event;
  const suppressed = limit === undefined ? 0 : limit.admit(`${name}:${'port' in event ? String(event.port) : '-'}`, Math.floor(at / 1e6));
  if (suppressed === null) return;
  log[level](suppressed > 0 ? { at, ...fields, suppressed } : { at, ...fields }, name);
}
