import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FabricBuilder } from './builder.ts';
import { buildTopology, unreachable, walk } from './index.ts';
import type { Fabric } from './types.ts';

function pathLength(f: Fabric, a: number, b: number): number {
  const w = walk(f, a, b);
  assert.ok(w.ok, `${a} → ${b}: ${w.ok ? '' : w.reason}`);
  return w.switches.length;
}

/** Histogram of path lengths (switches crossed) over every ordered pair of distinct hosts. */
function lengths(f: Fabric): Map<number, number> {
  const out = new Map<number, number>();
  for (let a = 0; a < f.hosts.length; a++) for (let b = 0; b < f.hosts.length; b++) if (a !== b) out.set(pathLength(f, a, b), (out.get(pathLength(f, a, b)) ?? 0) + 1);
  return out;
}

/** Every port at most one link, every link's ends agree with the peer table, host IDs 0 … n − 1. */
function wellFormed(f: Fabric): void {
  f.hosts.forEach((h, i) => {
    assert.equal(h.id, i);
    assert.deepEqual(f.peers[h.switch]?.[h.port], { kind: 'host', id: i });
  });
  for (const l of f.links) {
    if (l.kind === 'host') continue;
    assert.deepEqual(f.peers[l.a.switch]?.[l.a.port], { kind: 'switch', switch: l.b.switch, port: l.b.port });
    assert.deepEqual(f.peers[l.b.switch]?.[l.b.port], { kind: 'switch', switch: l.a.switch, port: l.a.port });
  }
  assert.equal(new Set(f.links.map((l) => l.name)).size, f.links.length, 'link names are unique');
}

/** VoQ Backpressure §2.2: each entry's `next` is the egress port of the next device on the path (0 at an end point). */
function nextHopsAgree(f: Fabric): void {
  f.routes.forEach((table, s) => {
    for (const [dst, r] of table) {
      const peer = f.peers[s]?.[r.port];
      assert.ok(peer !== undefined);
      const expected = peer.kind === 'host' ? 0 : f.routes[peer.switch]?.get(dst)?.port;
      assert.equal(r.next, expected, `${f.switches[s]?.name} → ${dst}`);
    }
  });
}

test('issue 7 §2 N x N switch: N hosts on one switch, host i on port i, every pair one switch apart', () => {
  const f = buildTopology({ kind: 'switch', hosts: 8 });
  wellFormed(f);
  assert.equal(f.switches.length, 1);
  assert.equal(f.switches[0]?.ports, 8);
  assert.equal(unreachable(f), null);
  assert.deepEqual([...lengths(f)], [[1, 56]]);
  assert.deepEqual(f.routes[0]?.get(5), { port: 5, next: 0 });
  nextHopsAgree(f);
});

test('issue 7 §2 leaf/spine: up/down routing, spine = destination ID mod S, every host reaches every other host', () => {
  const f = buildTopology({ kind: 'leaf-spine', leaves: 4, spines: 3, hostsPerLeaf: 5 });
  wellFormed(f);
  assert.equal(f.hosts.length, 20);
  assert.equal(f.switches.length, 7);
  assert.equal(f.links.length, 20 + 12);
  assert.equal(unreachable(f), null);
  // Same leaf: 1 switch (20 × 4 pairs); other leaves: leaf → spine → leaf (20 × 15).
  assert.deepEqual([...lengths(f)].sort(), [[1, 80], [3, 300]]);
  for (let d = 0; d < 20; d++) {
    const w = walk(f, d === 0 ? 19 : 0, d);
    if (w.ok && w.switches.length === 3) assert.equal(f.switches[w.switches[1] as number]?.name, `spine${d % 3}`);
  }
  // leaf0 sends host 7 (leaf1) up to spine 1 (port 5 + 1); spine1 sends it down to leaf 1, whose egress is port 7 mod 5 = 2.
  assert.deepEqual(f.routes[0]?.get(7), { port: 6, next: 1 });
  assert.deepEqual(f.routes[5]?.get(7), { port: 1, next: 2 });
  nextHopsAgree(f);
});

test('issue 7 §2 k-ary n-fly: destination-tag routing reaches every host across n stages, folded back to the destination terminal switch', () => {
  for (const [k, n] of [[2, 1], [2, 2], [2, 3], [3, 2], [4, 3]] as const) {
    const f = buildTopology({ kind: 'butterfly', k, n });
    wellFormed(f);
    const hosts = k ** n;
    assert.equal(f.hosts.length, hosts);
    assert.equal(f.switches.length, n * k ** (n - 1));
    assert.equal(unreachable(f), null, `${k}-ary ${n}-fly`);
    // Same terminal switch: 1; otherwise the n stages and the destination's stage-0 switch.
    const local = hosts * (k - 1);
    const expected = n === 1 ? [[1, local]] : [[1, local], [n + 1, hosts * (hosts - 1) - local]];
    assert.deepEqual([...lengths(f)].sort((a, b) => a[0] - b[0]), expected, `${k}-ary ${n}-fly`);
    nextHopsAgree(f);
  }
});

test('issue 7 §2 k-ary n-fly: stage j picks output digit n − 1 − j of the destination (destination-tag routing)', () => {
  const f = buildTopology({ kind: 'butterfly', k: 2, n: 3 });
  // Host 0 (f0.0) to host 6 = 110b: stage 0 takes output 1, stage 1 output 1, stage 2 output 0.
  const w = walk(f, 0, 6);
  assert.ok(w.ok);
  const names = w.switches.map((s) => f.switches[s]?.name);
  assert.equal(names.length, 4);
  const outs = w.switches.slice(0, 3).map((s) => (f.routes[s]?.get(6)?.port ?? -1) - 2);
  assert.deepEqual(outs, [1, 1, 0]);
  assert.equal(names[3], 'f0.3');
});

test('issue 7 §2 ring: shortest path, a tie goes clockwise, no loops', () => {
  const f = buildTopology({ kind: 'ring', switches: 6, hostsPerSwitch: 2 });
  wellFormed(f);
  assert.equal(unreachable(f), null);
  // Host 0 (r0) to r1..r5: 2, 3, 4 (tie: clockwise), 3, 2 switches.
  assert.deepEqual([2, 4, 6, 8, 10].map((d) => pathLength(f, 0, d)), [2, 3, 4, 3, 2]);
  const tie = walk(f, 0, 6);
  assert.ok(tie.ok);
  assert.deepEqual(tie.switches.map((s) => f.switches[s]?.name), ['r0', 'r1', 'r2', 'r3']);
  const odd = buildTopology({ kind: 'ring', switches: 2, hostsPerSwitch: 1 });
  assert.equal(unreachable(odd), null);
  nextHopsAgree(f);
});

test('issue 7 §2 2-D mesh: dimension-order routing (x then y), path length = Manhattan distance + 1', () => {
  const f = buildTopology({ kind: 'mesh', width: 4, height: 3, hostsPerSwitch: 2 });
  wellFormed(f);
  assert.equal(f.hosts.length, 24);
  assert.equal(unreachable(f), null);
  for (let a = 0; a < 24; a++) {
    for (let b = 0; b < 24; b++) {
      if (a === b) continue;
      const sa = Math.floor(a / 2);
      const sb = Math.floor(b / 2);
      assert.equal(pathLength(f, a, b), Math.abs((sa % 4) - (sb % 4)) + Math.abs(Math.floor(sa / 4) - Math.floor(sb / 4)) + 1);
    }
  }
  // x first: from m0.0 to m3.2 along row 0, then up column 3.
  const w = walk(f, 0, 23);
  assert.ok(w.ok);
  assert.deepEqual(w.switches.map((s) => f.switches[s]?.name), ['m0.0', 'm1.0', 'm2.0', 'm3.0', 'm3.1', 'm3.2']);
  nextHopsAgree(f);
});

test('issue 7 §2 topologies: bad parameters are refused with the field named', () => {
  assert.throws(() => buildTopology({ kind: 'switch', hosts: 1 }), /topology\.hosts must be an integer from 2 to 192/);
  assert.throws(() => buildTopology({ kind: 'leaf-spine', leaves: 2, spines: 100, hostsPerLeaf: 100 }), /hostsPerLeaf \+ spines give switches of 200 ports/);
  assert.throws(() => buildTopology({ kind: 'butterfly', k: 1, n: 2 }), /topology\.k must be/);
  assert.throws(() => buildTopology({ kind: 'ring', switches: 1, hostsPerSwitch: 1 }), /topology\.switches/);
  assert.throws(() => buildTopology({ kind: 'mesh', width: 1, height: 1, hostsPerSwitch: 1 }), /at least 2/);
});

test('issue 7 §2 topologies: a loop in the routing tables is found by the walk', () => {
  const b = new FabricBuilder();
  const s0 = b.addSwitch('a', 2);
  const s1 = b.addSwitch('b', 2);
  b.addHost(s0, 0);
  b.addHost(s1, 0);
  b.connect(s0, 1, s1, 1);
  b.route(s0, 0, 0);
  b.route(s1, 1, 0);
  b.route(s1, 0, 1);
  b.route(s0, 1, 1);
  const f = b.finish('test');
  assert.equal(walk(f, 1, 0).ok, true);
  const bad = new FabricBuilder();
  const x = bad.addSwitch('x', 2);
  const y = bad.addSwitch('y', 2);
  bad.addHost(x, 0);
  bad.addHost(y, 0);
  bad.connect(x, 1, y, 1);
  bad.route(x, 0, 1);
  bad.route(y, 0, 1);
  bad.route(x, 1, 1);
  bad.route(y, 1, 0);
  // Both switches send destination 0 over the fabric link: x → y → x …
  const loop = walk(bad.finish('loop'), 1, 0);
  assert.equal(loop.ok, false);
  assert.match((loop as { reason: string }).reason, /loop at y/);
});
