import type { SmpMessage } from '../wire/smp/index.ts';
import type { SessionOutput, SmpPriority } from './types.ts';

/**
 * §3.7.2: "It is strongly recommended that messaging hardware implement a mechanism allowing
 * ACCEPT, CLOSE, FLOW_CONTROL and STATUS messages to be sent and received with higher priority
 * than messages containing commands OPEN, REQUEST, ADVERTISE, REFUSE, DATA and USERDEFINED."
 */
export function priorityOf(m: SmpMessage): SmpPriority {
  switch (m.command) {
    case 'ACCEPT':
    case 'CLOSE':
    case 'FLOW_CONTROL':
    case 'STATUS':
      return 'high';
    default:
      return 'normal';
  }
}

function rank(o: SessionOutput): number {
  if (o.kind === 'send') return o.priority === 'high' ? 0 : 1;
  return 1;
}

/**
 * The outputs of one `handle()` call with the messages reordered so that every high-priority
 * send comes before every normal one (DATA3 PDUs count as normal: they are DATA). Sends keep
 * their order within a priority, and events, deliveries and timers keep their places.
 */
export function prioritise(out: SessionOutput[]): SessionOutput[] {
  const slots: number[] = [];
  const sends: SessionOutput[] = [];
  out.forEach((o, i) => {
    if (o.kind === 'send' || o.kind === 'send-pdu') {
      slots.push(i);
      sends.push(o);
    }
  });
  if (sends.every((o, i) => i === 0 || rank(o) >= rank(sends[i - 1] as SessionOutput))) return out;
  const ordered = [...sends.filter((o) => rank(o) === 0), ...sends.filter((o) => rank(o) === 1)];
  const result = out.slice();
  slots.forEach((slot, i) => {
    result[slot] = ordered[i] as SessionOutput;
  });
  return result;
}
