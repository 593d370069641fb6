/**
 * The control socket of `riodp endpoint` (control-protocol.ts): a Unix domain socket, mode 0600
 * (only the user who runs the end point may drive it; the end point reads and writes files on the
 * client's behalf), serving `riodp send`, `recv`, `status`, `read-reg`.
 *
 * Streams peers open (the end point's `incoming()`), decisions:
 * - a file-transfer conduit goes to the oldest connected `recv` client, which receives it into its
 *   folder with its options (onExists, maxSize); without a client it waits (its data held back by
 *   FLOW_CONTROL, api-stream.ts), at most `MAX_WAITING` of them; beyond, it is closed;
 * - a client that disconnects, or the server closing, aborts the client's transfers in progress
 *   (their part files removed, the senders answered `aborted`); the server's close waits for that;
 * - `recv` first removes the part files processes no longer running left in its folder;
 * - a stream of any other protocol has no consumer in `riodp endpoint`: it is closed and logged.
 */
import { chmod, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { isFileTransfer, receiveFile, sendFile } from './api-file.ts';
import { DEFAULT_MAX_FILE_SIZE, removeStaleParts } from './api-file-store.ts';
import type { OnExists } from './api-file-store.ts';
import type { RiodpEndpoint, Stream } from './api-types.ts';
import { LineSplitter, MAX_LINE, parseRequest, responseLine } from './control-protocol.ts';
import type { ControlRequest, ControlResponse, RequestId } from './control-protocol.ts';
import type { Logger } from './log.ts';
import { socketInUse } from './socket-in-use.ts';

/** File-transfer conduits that wait for a `recv` client. */
export const MAX_WAITING = 16;

export interface ControlServer {
  readonly path: string;
  close(): Promise<void>;
}

interface RecvClient {
  readonly id: RequestId;
  readonly conn: Socket;
  readonly dir: string;
  readonly onExists: OnExists;
  readonly maxSize: number;
  /** Aborts the client's transfers in progress when it disconnects or the server closes. */
  readonly stop: AbortController;
}

export async function startControlServer(ep: RiodpEndpoint, path: string, log?: Logger): Promise<ControlServer> {
  if (await socketInUse(path)) throw new Error(`control socket ${path} is in use by another process`);
  await unlink(path).catch(() => undefined);
  const clients: RecvClient[] = [];
  const waiting: Stream[] = [];
  const conns = new Set<Socket>();
  /** Transfers in progress: the server's close waits for them, so that their part files are gone. */
  const active = new Set<Promise<void>>();

  const write = (conn: Socket, r: ControlResponse): void => {
    if (!conn.destroyed) conn.write(responseLine(r));
  };

  const receive = (s: Stream, c: RecvClient): void => {
    const p = receiveFile(s, c.dir, { onExists: c.onExists, maxSize: c.maxSize, signal: c.stop.signal }).then((file) => {
      log?.info({ from: file.from, name: file.name, size: file.size, status: file.status, path: file.path }, 'file received');
      write(c.conn, { id: c.id, event: 'file', file });
    }).catch((e: unknown) => {
      log?.error({ err: e instanceof Error ? e.message : String(e) }, 'file not received');
    });
    active.add(p);
    void p.finally(() => active.delete(p));
  };

  const offer = (s: Stream): void => {
    if (!isFileTransfer(s)) {
      log?.info({ remote: s.remote, protoID: s.protoID }, 'incoming stream of a protocol riodp endpoint has no consumer for: closed');
      void s.close();
      return;
    }
    const c = clients[0];
    if (c !== undefined) {
      receive(s, c);
      return;
    }
    if (waiting.length >= MAX_WAITING) {
      log?.warn({ remote: s.remote }, `more than ${MAX_WAITING} files wait for a recv client: closed`);
      void s.close();
      return;
    }
    waiting.push(s);
  };

  // Ends when the end point closes (its incoming() ends) or the server closes (return()).
  const incoming = ep.incoming()[Symbol.asyncIterator]();
  void (async () => {
    for (let r = await incoming.next(); r.done !== true; r = await incoming.next()) offer(r.value);
  })();

  const handle = async (conn: Socket, req: ControlRequest): Promise<void> => {
    try {
      switch (req.op) {
        case 'status':
          write(conn, { id: req.id, ok: true, result: ep.status() });
          return;
        case 'send-file': {
          const sent = await sendFile(ep, req.to, req.path, req.hop === undefined ? {} : { hop: req.hop });
          log?.info({ to: sent.to, name: sent.name, size: sent.size, status: sent.result.status, ms: sent.ms }, 'file sent');
          write(conn, { id: req.id, ok: true, result: sent });
          return;
        }
        case 'recv': {
          const stale = await removeStaleParts(req.dir);
          if (stale.length > 0) log?.info({ dir: req.dir, files: stale }, 'stale parts removed');
          const c: RecvClient = { id: req.id, conn, dir: req.dir, onExists: req.onExists ?? 'rename', maxSize: req.maxSize ?? DEFAULT_MAX_FILE_SIZE, stop: new AbortController() };
          if (conn.destroyed) return;
          clients.push(c);
          write(conn, { id: req.id, ok: true, result: { dir: c.dir, onExists: c.onExists, maxSize: c.maxSize, staleParts: stale.length } });
          for (let s = waiting.shift(); s !== undefined; s = waiting.shift()) receive(s, c);
          return;
        }
        case 'read-reg':
          write(conn, { id: req.id, ok: true, result: { value: await ep.readRegister(req.to, req.hop, req.offset) } });
          return;
        case 'discover':
          write(conn, { id: req.id, ok: true, result: await ep.discover(req.node, req.hop) });
          return;
      }
    } catch (e) {
      write(conn, { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  };

  const server: Server = createServer((conn) => {
    conns.add(conn);
    conn.setEncoding('utf8');
    const lines = new LineSplitter();
    conn.on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) {
        const p = parseRequest(line);
        if (p.ok) void handle(conn, p.request);
        else write(conn, { id: p.id, ok: false, error: p.error });
      }
      if (lines.overflow) {
        write(conn, { id: null, ok: false, error: `a line longer than ${MAX_LINE} bytes: connection closed` });
        conn.end();
      }
    });
    conn.on('error', () => undefined);
    conn.on('close', () => {
      conns.delete(conn);
      for (let i = clients.length - 1; i >= 0; i--) {
        const c = clients[i];
        if (c?.conn !== conn) continue;
        c.stop.abort(new Error('its riodp recv disconnected'));
        clients.splice(i, 1);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  server.on('error', (e) => log?.error({ err: e.message }, 'control socket error'));
  let closed: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    await incoming.return?.();
    for (const c of clients) c.stop.abort(new Error('its end point is closing'));
    await Promise.allSettled(active);
    for (const c of conns) c.destroy();
    for (const s of waiting.splice(0)) void s.close();
    await new Promise<void>((resolve) => server.close(() => { resolve(); }));
    await unlink(path).catch(() => undefined);
  };
  return {
    path,
    close: () => (closed ??= close()),
  };
}
