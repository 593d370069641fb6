/**
 * `riodp`: the software reference implementation of the RapidIO data plane (docs/api.md).
 *
 * Each layer is also its own entry point, with the same names:
 * - `riodp/wire`: bit-exact codecs (packets, control symbols, CRCs, session messages, link frames);
 * - `riodp/registers`: configuration space (CARs, CSRs, extended features blocks);
 * - `riodp/engines`: the sans-IO protocol engines (Part 9, VoQ, Part 10, Annex 2);
 * - `riodp/node`: switch and end point elements composed from the engines;
 * - `riodp/sim`: the fabric simulator;
 * - `riodp/net`: the software fabric over TCP and its application API.
 *
 * This entry gives each layer as a namespace (`wire.decodePacket`, `net.startEndpoint`, …).
 *
 * @module riodp
 */
export * as wire from './wire/index.ts';
export * as registers from './registers/index.ts';
export * as engines from './engines/index.ts';
export * as node from './node/index.ts';
export * as sim from './sim/index.ts';
export * as net from './net/index.ts';
