/**
 * The scenario the simulator's capture tests run (src/sim/capture/fabric-capture.test.ts,
 * test/wireshark/sim-capture.test.ts): two switches in series, two hosts on each, an incast across
 * the switch link; Part 9 CCPs in one variant, VoQ backpressure in the other, plain (not
 * segmented) data in both.
 */
export function captureScenarioYaml(duration: string): string {
  return `
name: capture
seed: 5
duration: ${duration}
warmup: 5us
topology: { kind: mesh, width: 2, height: 1, hostsPerSwitch: 2 }
link: { lanes: 1, baud: 3.125, encoding: 8b10b, propagation: 20ns }
linkOverrides: [{ match: "*-*", lanes: 4 }]
switch: { speedup: 4, inputBuffer: { packets: 8 }, outputBuffer: { packets: 32 } }
traffic:
  - { group: hot, pattern: incast, sink: 2, sources: [0, 1, 3], load: 0.9, sizes: 200B }
variants:
  - { name: part9, overrides: { switch: { congestion: { highWatermark: 6, lowWatermark: 3 } } } }
  - { name: voq, overrides: { switch: { queueing: cioq-voq-backpressure, voq: { high: 4, low: 2 } } } }
`;
}
