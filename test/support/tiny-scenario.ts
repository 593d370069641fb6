/**
 * A four-host single-switch scenario small enough to spawn `riodp sim` / `riodp sweep` on in a
 * test: an incast group and a light uniform group, with and without Part 9 congestion control.
 */
export function tinyScenario(duration: string): string {
  return `name: tiny
seed: 3
duration: ${duration}
warmup: 10us
topology: { kind: switch, hosts: 4 }
switch: { speedup: 4, congestion: { highWatermark: 4, lowWatermark: 2 } }
traffic:
  - { group: hot, pattern: incast, sink: 0, load: 0.6 }
  - { group: cold, pattern: uniform, load: 0.1, sources: [1], destinations: [2, 3] }
variants:
  - { name: part9 }
  - { name: off, overrides: { switch: { congestion: null } } }
`;
}
