/**
 * `npm run demo:fabric` as a test (issue 8 §4 "(also a test)"): the demo script runs as a child
 * process, as a user runs it. 2 MB files instead of the demo's 10 MB keep this file within its
 * budget on two shared cores (docs/fabric-demo.md); everything else is the demo as it ships.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alive } from '../support/alive.ts';
import { captureTransfer, demoCaptureDir } from './demo-capture.ts';

const script = fileURLToPath(new URL('../../scripts/demo-fabric.ts', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the demo; `onStdout` sees the output so far and may signal the demo. */
function demo(args: readonly string[], onStdout?: (all: string, signal: (s: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      onStdout?.(stdout, (s) => child.kill(s));
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // A demo that hangs is stopped the way a user would stop it, so that it stops its children.
    const guard = setTimeout(() => child.kill('SIGINT'), 120_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The pids of every riodp process the demo started (its `$ riodp … (name, pid N)` lines). */
function pids(stdout: string): number[] {
  return [...stdout.matchAll(/^\[demo\s*\] \$ riodp .*\(([^,]+), pid (\d+)\)$/gm)].map((m) => Number(m[2]));
}

test('issue 8 §4: npm run demo:fabric passes: checksums equal, XOFF and XON seen, a peer killed, the others recover; issue 19: with --pcap its captures show the SHA-256-checked transfer as a Type 9 stream, in riodp and in tshark', { timeout: 150_000 }, async () => {
  const pcap = demoCaptureDir();
  const r = await demo(['--size', '2MB', '--pcap', pcap.dir]);
  assert.equal(r.code, 0, `${r.stderr}\n${r.stdout.split('\n').slice(-40).join('\n')}`);
  const out = r.stdout;
  assert.match(out, /PASS A and B discovered each other/);
  assert.match(out, /PASS checksums equal for file-1\.bin: SHA-256 ([0-9a-f]{64}) \(generator, sent, received, written\)/);
  const sent = /\[A send\s*\] sent file-1\.bin: 2000000 bytes, SHA-256 ([0-9a-f]{64})/.exec(out);
  const received = /\[B recv\s*\] ok file-1\.bin: 2000000 bytes, SHA-256 ([0-9a-f]{64}), from node 1/.exec(out);
  assert.ok(sent !== null && received !== null, 'both sides print the SHA-256');
  assert.equal(sent[1], received[1]);
  assert.match(out, /\[switch\s*\] ccp-sent .*command=XOFF/);
  assert.match(out, /PASS XOFF seen: the switch's congestion point on port 1 \(B\) sent XOFF to C/);
  assert.match(out, /\[C\s*\] flow xoff destinationID=2 flowID=0A cause=xoff/);
  assert.match(out, /PASS the status of C shows its flow to B in XOFF/);
  assert.match(out, /C's status while B is stopped: Part 9 flows .*2\/0A XOFF/);
  assert.match(out, /\[switch\s*\] ccp-sent .*command=XON/);
  assert.match(out, /PASS XON seen: .*C restarted its flow/);
  assert.match(out, /\[C\s*\] flow xon destinationID=2 flowID=0A cause=xon/);
  assert.match(out, /C killed \(SIGKILL\) while sending flood\.bin to B/);
  assert.match(out, /\[switch\s*\] WARN link-down port=2 .*reason=lost/);
  assert.match(out, /PASS peer killed: the switch logged port 2 down \(reason lost\)/);
  // B finds C's switch port uninitialized and closes C's streams (peer-lost, decision FF4); failing
  // that, C killed mid-PDU (all but about one run in 257, docs/fabric-demo.md): B times out the PDU,
  // verifies C's streams and closes them; else it has nothing to time out and keeps them open.
  assert.match(out, /PASS B closed C's streams \(cause (status-timeout|peer-lost)\), reported C suspect|PASS C died between two PDUs: B had no partial PDU to time out/);
  assert.match(out, /PASS riodp status of B shows (no open stream of C|C's \d+ stream\(s\) still open)/);
  assert.match(out, /PASS checksums equal for file-2\.bin/);
  assert.match(out, /PASS transfer A → B after C was killed completed/);
  assert.match(out, /^demo-fabric: all \d+ checks passed in [\d.]+ s$/m);
  const started = pids(out);
  assert.ok(started.length >= 10, `every riodp process is listed (${started.length})`);
  assert.deepEqual(started.filter(alive), [], 'no riodp process left running');
  assert.match(out, /^demo-fabric: captures in /m);
  try {
    const t = await captureTransfer(pcap.dir, 'A', 'file-1.bin');
    assert.equal(t.header.size, 2_000_000);
    assert.equal(t.sha256, t.header.sha256, 'the bytes in the capture hash to the SHA-256 the header announced');
    assert.equal(t.sha256, sent[1], 'and to the SHA-256 A printed');
    assert.ok(t.pdus >= 31, `${t.pdus} PDUs of at most 64 KiB`);
    assert.equal(t.tsharkStarts, t.streamPdus, `tshark shows a start or single segment with streamID ${t.streamID} for each PDU riodp reassembled on it`);
    assert.ok(t.riodpSegments >= 2_000_000 / 256);
    assert.equal(t.tsharkSegments, t.riodpSegments, 'tshark shows every Type 9 segment riodp reassembled from A.p0.tx');
  } finally {
    pcap.done();
  }
});

test('issue 8 §4 "kills every child process on any exit": SIGINT stops the demo with one line, exit 130, and no process left', { timeout: 120_000 }, async () => {
  let sent = false;
  const r = await demo(['--size', '1MB'], (all, signal) => {
    // Once the switch and every end point have been started, before they are all up.
    if (!sent && /\$ riodp endpoint --config \$WORK\/C\.yaml/.test(all)) {
      sent = true;
      signal('SIGINT');
    }
  });
  assert.equal(r.code, 130);
  assert.equal(r.stderr.trim(), 'demo-fabric: FAILED: interrupted by SIGINT');
  const started = pids(r.stdout);
  assert.ok(started.length >= 4, 'the switch and the end points had started');
  assert.deepEqual(started.filter(alive), []);
});

test('issue 8 §4: a bad option is a usage error (exit 2) naming it, and nothing starts', async () => {
  const r = await demo(['--size', 'ten']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^demo-fabric: --size must be a positive size, not 'ten'\nusage: npm run demo:fabric/);
  assert.equal(r.stdout, '');
});
