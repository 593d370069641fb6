/**
 * Starting an end point process (endpoint-process.ts): the entry of `riodp endpoint` and of
 * programs (`startEndpoint` in riodp/net).
 */
import { EndpointProcess } from './endpoint-process.ts';
import type { StartEndpointOptions } from './endpoint-process.ts';
import type { EndpointProcessConfig } from './endpoint-config.ts';
import type { RiodpEndpoint } from './api-types.ts';

/**
 * Starts an end point process: builds its engine (a RangeError names a bad field), connects to
 * the switch and resolves with the API once the link is up and, when the configuration has
 * `control`, its control socket is served (docs/fabric-api.md §4; `close()` removes it).
 *
 * @example
 * ```ts
 * import { endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * // A switch with end point 2 on its port 0 and end point 1 on port 1, each listening on a free loopback TCP port.
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], routes: { 2: 0, 1: 1 }, log: 'warn' }));
 * const node = (nodeId: number, port: number) => startEndpoint(endpointConfig({
 *   nodeId,
 *   switch: { port: sw.addresses[port]!.tcpPort },          // the switch port's TCP port, on 127.0.0.1
 *   protocols: [{ protoID: 0x1234, dataHeaderFormat: 'DATA3' }],
 *   discovery: { targets: [{ node: 2 }] },
 *   log: 'warn',
 * }));
 * const b = await node(2, 0);
 * const a = await node(1, 1);
 * await a.discover();                                       // → [{ node: 2, contact: { conveyance: 'type9', streamID: 0xfff0, cos: 0 }, … }]
 * const s = await a.openStream({ to: 2, protoID: 0x1234 }); // OPEN … ACCEPT (Annex 2 §3.5.1.3)
 * await s.send(new Uint8Array(1000));
 * for await (const r of b.incoming()) { console.log(r.remote, (await r.read())?.length); break; } // 1 1000
 * await s.close();
 * await b.close();
 * await a.close();
 * await sw.close();
 * ```
 */
export async function startEndpoint(config: EndpointProcessConfig, opts: StartEndpointOptions = {}): Promise<RiodpEndpoint> {
  const p = new EndpointProcess(config, opts);
  await p.start();
  return p.api;
}

/** Like startEndpoint, also giving the process (its `snapshot()`), for `riodp endpoint` and tests. */
export async function startEndpointProcess(config: EndpointProcessConfig, opts: StartEndpointOptions = {}): Promise<EndpointProcess> {
  const p = new EndpointProcess(config, opts);
  await p.start();
  return p;
}
