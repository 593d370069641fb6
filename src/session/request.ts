import { PROTO_ID, smpRequest } from '../wire/smp/index.ts';
import type { SmpAdvertise, SmpRequest } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { advertiseFor } from './negotiate.ts';
import type { Pending } from './pending.ts';
import { answerCommandUnknown } from './status-rules.ts';
import type { RequestCommand } from './types.ts';

/**
 * REQUEST and ADVERTISE (Annex 2 §3.5.1.1–§3.5.1.2, §3.8.1, §3.9.2, §4.2.1–§4.2.2): optional in
 * the spec, implemented here, and switched off by `requestAdvertise: false` ("Systems which do not
 * implement support for REQUEST and ADVERTISE will respond to REQUEST with STATUS, indicating
 * Command_Unknown", §3.8.1).
 */

export function requestKey(to: number, protoID: number): string {
  return `request/${to}/${protoID}`;
}

/**
 * §4.2.1: "A value containing all ones, 0xffff, indicates a request for a list of protocols
 * without attributes"; otherwise the attributes of one protocol, "limit[ed] by including a list of
 * required attributes".
 */
export function requestCommand(core: SessionCore, c: RequestCommand): void {
  const protoID = c.protoID ?? PROTO_ID.PROTOCOL_LIST;
  if (!Number.isInteger(protoID) || protoID < 0 || protoID > 0xffff) {
    core.event({ event: 'dropped', reason: 'invalid-protoID', node: c.to });
    return;
  }
  const attributes = protoID === PROTO_ID.PROTOCOL_LIST ? [] : (c.attributes ?? []);
  const m = smpRequest({ sourceID: core.config.nodeId, destID: c.to, protoID, attributes });
  core.request(requestKey(c.to, protoID), c.to, m, { command: 'REQUEST', protoID });
}

export function onRequest(core: SessionCore, from: number, m: SmpRequest, raw: Uint8Array): void {
  if (!core.config.requestAdvertise) {
    answerCommandUnknown(core, from, raw, m);
    return;
  }
  core.reply(from, advertiseFor(m, core.config.protocols, core.config.nodeId));
}

/**
 * An ADVERTISE: reported, its attribute blocks kept for OPENs to that node (§3.8.2 "OPEN commands
 * should maintain the order of Attributes that was used in the ADVERTISE command"), and the
 * REQUEST it answers settled: the protocol list (A=0) answers ProtoID 0xFFFF, a block answers its
 * ProtoID, and "not supported" (S=0), which names no protocol, the oldest REQUEST to that node.
 */
export function onAdvertise(core: SessionCore, from: number, m: SmpAdvertise): void {
  core.event({ event: 'advertised', node: from, message: m });
  if (m.s === 1 && m.a === 0) {
    core.pending.resolve(requestKey(from, PROTO_ID.PROTOCOL_LIST), core.out);
    return;
  }
  if (m.s === 1 && m.a === 1) {
    for (const p of m.protocols) {
      core.advertised.set(`${from}/${p.protoID}`, p.attributes);
      core.pending.resolve(requestKey(from, p.protoID), core.out);
    }
    return;
  }
  const oldest = core.pending
    .all()
    .filter((p: Pending) => p.to === from && p.what.command === 'REQUEST')
    .sort((a, b) => a.started - b.started)[0];
  if (oldest !== undefined) core.pending.resolve(oldest.key, core.out);
}
