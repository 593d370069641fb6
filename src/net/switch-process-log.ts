/**
 * How a switch's events become log lines (docs/fabric-switch.md "Logs"). One JSON line per
 * element event, its `msg` the event's name and its fields alongside, at a level that says how
 * much an operator should care: a drop the configuration asked for (a sourceID a port does not
 * accept, issue 8 §3) or one that loses traffic is a warning; an input the element could not read
 * is an error; congestion control (XOFF/XON, issue 8 §4 "the log shows XOFF/XON") is information.
 */
import type { Level } from 'pino';
import type { SwitchEvent } from '../node/switch-element.ts';
import type { Logger } from './log.ts';

const EVENT_LEVEL: Readonly<Record<SwitchEvent['name'], Level>> = {
  'source-rejected': 'warn',
  'no-route': 'warn',
  'port-down': 'warn',
  'hold-overrun': 'error',
  'maintenance-answered': 'info',
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

/** Logs an element event; `at` is the element's time (ns of the process's monotonic clock). */
export function logSwitchEvent(log: Logger, at: number, event: SwitchEvent): void {
  const level = eventLevel(event);
  if (!log.isLevelEnabled(level)) return;
  const { name, ...fields } = event;
  log[level]({ at, ...fields }, name);
}
