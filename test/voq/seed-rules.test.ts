/**
 * Rules of voq-backpressure.txt Chapters 1–3 that no engine test covers alone: the scope of the
 * message, how many messages a small device needs, and the implementer's congestion detector.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CongestionDetector, DepthObservation, DetectorChange } from '../../src/voq/detectors.ts';
import { VoqGenerator } from '../../src/voq/generator.ts';
import { voqSymbol } from '../../src/wire/voq-stype2.ts';
import { VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

/** The groups one timer refresh (§4.2 f) sends on the link: what it takes to state every port. */
function messagesForEveryPort(c: VoqLinkConfig): { groups: number[]; ports: number } {
  const l = new VoqLink({ ...c, refreshPeriod: 100 });
  l.congest(0);
  l.flush();
  const before = l.delivered.length;
  l.advance(100);
  l.flush();
  const sent = l.delivered.slice(before);
  assert.ok(sent.every((m) => m.reason === 'timer'));
  return { groups: sent.map((m) => m.group), ports: l.reach };
}

test('VoQ Backpressure §2.1: "Smaller devices may be able to communicate port status in one or two messages" (6 ports: one, 12: two, 192: thirty-two)', () => {
  assert.deepEqual(messagesForEveryPort({ ports: 6 }).groups, [0]);
  assert.deepEqual(messagesForEveryPort({ ports: 12 }).groups, [0, 1]);
  assert.deepEqual(messagesForEveryPort({ ports: 192 }).groups, Array.from({ length: 32 }, (_, g) => g));
  // Part 12 §2.1: "The size of the Port Group field is programmable ... to support sending more or less Port Status in each message".
  assert.deepEqual(messagesForEveryPort({ format: 'part12-rev4.1', groupSize: 0, ports: 13 }).groups, [0]);
  assert.deepEqual(messagesForEveryPort({ format: 'part12-rev4.1', groupSize: 1, ports: 24 }).groups, [0, 1]);
});

test('VoQ Backpressure §1.1, §2: the message reaches only the adjacent upstream device, which acts on its own queues and forwards nothing', () => {
  const l = new VoqLink({ ports: 12, queues: 2 });
  l.congest(4);
  l.flush();
  assert.deepEqual(l.rxOutputs.map((o) => o.kind), ['blocked']);
  assert.equal(l.delivered.length, 1);
});

test('VoQ Backpressure §2.5 "left to the implementer": a congestion detector of the integrator\'s own design plugs into the generator', () => {
  /** Congested while more than half of the 8 buffers of a port are used, any VC. */
  class HalfFull implements CongestionDetector {
    readonly accepts = 'queue-depth';
    readonly #congested = new Set<number>();
    observe(o: DepthObservation): DetectorChange | null {
      if (o.kind !== 'queue-depth') return null;
      const now = o.depth > 4;
      if (now === this.#congested.has(o.port)) return null;
      if (now) this.#congested.add(o.port);
      else this.#congested.delete(o.port);
      return { port: o.port, vc: o.vc, link: null };
    }
    congested(_link: number, port: number): boolean {
      return this.#congested.has(port);
    }
    snapshot(): unknown {
      return [...this.#congested];
    }
  }
  const g = new VoqGenerator({ ports: 2, detector: new HalfFull(), portSettings: { generation: true, participation: true } });
  g.handle({ kind: 'queue-depth', port: 1, depth: 4 }, 0);
  assert.deepEqual(g.pending(0), []);
  g.handle({ kind: 'queue-depth', port: 1, depth: 5 }, 0);
  const o = g.handle({ kind: 'next-stype2', port: 0, stype0: 0 }, 0).find((x) => x.kind === 'stype2');
  assert.equal(o?.kind === 'stype2' ? o.stype2 : -1, voqSymbol({ group: 0, congestedOffsets: [1] }));
  assert.deepEqual(g.snapshot()['detector'], [1]);
});
