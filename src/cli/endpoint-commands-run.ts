/**
 * The actions of `riodp endpoint`, `send`, `recv`, `status` and `read-reg` (endpoint-commands.ts).
 * Exit codes: 0 done, 1 the operation failed (switch unreachable, file refused, read error), 2 a
 * usage or configuration error. Errors are one stderr line each: `riodp <command>: <message>`.
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { formatIssue } from '../config/issues.ts';
import { ON_EXISTS, PART_SUFFIX } from '../net/api-file-store.ts';
import { ControlClient, ControlError } from '../net/control-client.ts';
import { parseSize } from '../net/demo-data.ts';
import { EndpointConfigError, loadEndpointConfig } from '../net/endpoint-config.ts';
import type { EndpointProcessConfig } from '../net/endpoint-config.ts';
import { startEndpointProcess } from '../net/endpoint-start.ts';
import { captureSettings } from './capture-settings.ts';
import type { CaptureFlags } from './capture-flags.ts';
import { logFlowChange } from '../net/endpoint-log.ts';
import { LOG_LEVELS, makeLogger } from '../net/log.ts';
import type { LogLevel } from '../net/log.ts';
import type { ClientFlags } from './endpoint-commands.ts';
import { formatStatus } from './endpoint-commands-status.ts';

class Usage extends Error {}

function fail(cmd: string, message: string): void {
  process.stderr.write(`riodp ${cmd}: ${message}\n`);
}

/** A decimal or 0x hex integer in [min, max]. */
function integer(text: string, what: string, min: number, max: number): number {
  const t = text.trim();
  const v = /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new Usage(`${what} must be an integer from ${min} to ${max} (decimal or 0x hex), not '${text}'`);
  return v;
}

function controlPath(flags: ClientFlags): string {
  const p = flags.control ?? process.env['RIODP_CONTROL'];
  if (p === undefined || p === '') throw new Usage('give the control socket of the running riodp endpoint with --control or RIODP_CONTROL');
  return p;
}

/** Runs a client command: usage errors exit 2, control and operation errors 1. */
async function client(cmd: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Usage) {
      fail(cmd, e.message);
      return 2;
    }
    fail(cmd, e instanceof Error ? e.message : String(e));
    return 1;
  }
}

// ---- riodp endpoint ----------------------------------------------------------------------------

export async function runEndpoint(flags: { config: string; control?: string; log?: string; logLevel?: string } & CaptureFlags): Promise<number> {
  let config: EndpointProcessConfig;
  const capture = captureSettings(flags);
  if (typeof capture === 'string') {
    fail('endpoint', capture);
    return 2;
  }
  // --log-level is the option's former name; --log wins when both are given.
  const level = flags.log ?? flags.logLevel;
  try {
    if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level)) throw new Usage(`${flags.log === undefined ? '--log-level' : '--log'}: expected one of ${LOG_LEVELS.join(', ')}`);
    config = loadEndpointConfig(flags.config);
  } catch (e) {
    if (e instanceof EndpointConfigError) {
      for (const i of e.issues) fail('endpoint', `${flags.config}: ${formatIssue(i)}`);
      return 2;
    }
    if (e instanceof Usage) {
      fail('endpoint', e.message);
      return 2;
    }
    throw e;
  }
  const control = flags.control ?? config.control ?? join(tmpdir(), `riodp-${config.engine.nodeId}.sock`);
  // The process serves the control socket (endpoint-process.ts), as startEndpoint does for `control`.
  const effective: EndpointProcessConfig = { ...config, control, ...(level === undefined ? {} : { log: level as LogLevel }) };
  // One logger for the process, its control socket (docs/fabric-api.md §7 `file sent`, `file received`) and the receive side's flow control.
  const log = makeLogger({ level: effective.log, name: `endpoint-${config.engine.nodeId}` });
  let proc;
  try {
    proc = await startEndpointProcess(effective, { logger: log, ...(capture === undefined ? {} : { capture }) });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    fail('endpoint', e instanceof RangeError ? `${flags.config}: ${msg}` : msg);
    return e instanceof RangeError ? 2 : 1;
  }
  proc.api.onFlowChange((c) => {
    logFlowChange(log, c);
  });
  const l = proc.link();
  process.stdout.write(`riodp endpoint ${proc.nodeId}: link up to ${l.switch}; control ${control}\n`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await proc.close();
  return 0;
}

// ---- riodp send --------------------------------------------------------------------------------

interface Sent {
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  readonly to: number;
  readonly ms: number;
  readonly result: { readonly status: string; readonly text: string };
}

export function runSend(file: string, flags: ClientFlags & { to: string; hop?: string }): Promise<number> {
  return client('send', async () => {
    const to = integer(flags.to, '--to', 0, 0xffff);
    const hop = flags.hop === undefined ? undefined : integer(flags.hop, '--hop', 0, 255);
    const c = await ControlClient.connect(controlPath(flags));
    try {
      const s = (await c.request({ op: 'send-file', to, path: resolve(file), ...(hop === undefined ? {} : { hop }) })) as Sent;
      // A file the receiver did not store is a failed operation: one stderr line, with its status and reason.
      if (s.result.status !== 'ok') throw new Error(`node ${s.to} did not store ${s.name} (${s.size} bytes): ${s.result.status} (${s.result.text})`);
      const rate = s.ms > 0 ? (s.size / 1e6 / (s.ms / 1000)).toFixed(1) : '-';
      process.stdout.write(`sent ${s.name}: ${s.size} bytes, SHA-256 ${s.sha256}, to node ${s.to} in ${s.ms} ms (${rate} MB/s): ${s.result.status} (${s.result.text})\n`);
      return 0;
    } finally {
      c.close();
    }
  });
}

// ---- riodp recv --------------------------------------------------------------------------------

interface Received {
  readonly from: number;
  readonly status: string;
  readonly text: string;
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  readonly path: string | null;
}

export interface RecvFlags extends ClientFlags {
  readonly out: string;
  readonly count?: string;
  readonly onExists?: string;
  readonly maxSize?: string;
}

/** `--max-size`: bytes, or a size as `npm run demo:fabric` takes its sizes (MB are 10^6 bytes, MiB 2^20). */
function byteCount(text: string, what: string): number {
  const v = parseSize(text);
  if (v === null) throw new Usage(`${what} must be a size in bytes: an integer, or with B, kB, KB, KiB, MB, MiB, GB or GiB (10MB is 10000000, 4GiB is 4294967296), not '${text}'`);
  return v;
}

export function runRecv(flags: RecvFlags): Promise<number> {
  return client('recv', async () => {
    const count = flags.count === undefined ? undefined : integer(flags.count, '--count', 1, Number.MAX_SAFE_INTEGER);
    const onExists = flags.onExists;
    if (onExists !== undefined && !(ON_EXISTS as readonly string[]).includes(onExists)) throw new Usage(`--on-exists must be one of ${ON_EXISTS.join(', ')}, not '${onExists}'`);
    const maxSize = flags.maxSize === undefined ? undefined : byteCount(flags.maxSize, '--max-size');
    const control = controlPath(flags);
    const dir = resolve(flags.out);
    await mkdir(dir, { recursive: true });
    const c = await ControlClient.connect(control);
    let received = 0;
    let failed = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((r) => {
      finish = r;
    });
    const onFile = (e: Record<string, unknown>): void => {
      const f = e['file'] as Received;
      received++;
      if (f.status !== 'ok') failed++;
      const what = f.name === '' ? '(no header)' : f.name;
      // The name written, when it is not the one announced (taken already, or a path cut to its last component).
      const as = f.path === null || basename(f.path) === f.name ? '' : `, written as ${basename(f.path)}`;
      process.stdout.write(`${f.status} ${what}: ${f.size} bytes, SHA-256 ${f.sha256 === '' ? '-' : f.sha256}, from node ${f.from}${as}${f.status === 'ok' ? '' : ` (${f.text})`}\n`);
      if (count !== undefined && received >= count) finish();
    };
    const stop = (): void => {
      finish();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
      const ack = (await c.request({ op: 'recv', dir, ...(onExists === undefined ? {} : { onExists }), ...(maxSize === undefined ? {} : { maxSize }) }, onFile)) as { staleParts?: number };
      const stale = ack.staleParts ?? 0;
      if (stale > 0) process.stderr.write(`riodp recv: removed ${stale} part file${stale === 1 ? '' : 's'} (*${PART_SUFFIX}) that receivers no longer running left in ${dir}\n`);
      await Promise.race([finished, c.ended().then(() => {
        throw new ControlError('the end point closed the control connection');
      })]);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      c.close();
    }
    return failed === 0 ? 0 : 1;
  });
}

// ---- riodp status ------------------------------------------------------------------------------

export function runStatus(flags: ClientFlags & { json: boolean }): Promise<number> {
  return client('status', async () => {
    const c = await ControlClient.connect(controlPath(flags));
    try {
      const s = await c.status();
      process.stdout.write(flags.json ? `${JSON.stringify(s)}\n` : formatStatus(s));
      return 0;
    } finally {
      c.close();
    }
  });
}

// ---- riodp read-reg ----------------------------------------------------------------------------

export function runReadReg(offsetText: string, flags: ClientFlags & { to: string; hop?: string }): Promise<number> {
  return client('read-reg', async () => {
    const to = integer(flags.to, '--to', 0, 0xffff);
    const hop = integer(flags.hop ?? '255', '--hop', 0, 255);
    const offset = integer(offsetText, 'offset', 0, 0xfffffc);
    if (offset % 4 !== 0) throw new Usage(`offset 0x${offset.toString(16)} is not word-aligned (Part 1 §4.1.10: a register is a 32-bit word)`);
    const c = await ControlClient.connect(controlPath(flags));
    try {
      const r = (await c.request({ op: 'read-reg', to, hop, offset })) as { value: number };
      process.stdout.write(`0x${r.value.toString(16).padStart(8, '0')}\n`);
      return 0;
    } finally {
      c.close();
    }
  });
}
