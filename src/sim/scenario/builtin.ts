import { parseScenario } from './load.ts';
import type { Scenario } from './load.ts';

/**
 * The built-in scenario (issue 7 §5: "a two-stage fabric with a hotspot and victim flows, run
 * three ways: no congestion control, Part 9 XON/XOFF, and VoQ backpressure"), which `riodp sim`
 * runs with no argument. The text is kept here so the command needs no file at run time;
 * scenarios/builtin.yaml is the same text, for users to copy and edit (a test keeps the two equal).
 *
 * @example
 * ```ts
 * import { BUILTIN_SCENARIO_TEXT, parseScenario } from 'riodp/sim';
 *
 * // The built-in scenario's YAML, shortened from 4 ms to 200 µs for a quick look (or written to a file to edit):
 * const text = BUILTIN_SCENARIO_TEXT.replace('duration: 4ms', 'duration: 200us').replace('warmup: 500us', 'warmup: 50us');
 * const s = parseScenario(text);
 * console.log(s.variants.map((v) => `${v.name}: ${v.config.duration / 1e6} µs`)); // [ 'no congestion control: 200 µs', 'Part 9 XON/XOFF: 200 µs', 'VoQ backpressure: 200 µs' ] (times are ps)
 * ```
 */
export const BUILTIN_SCENARIO_TEXT = `# riodp's built-in scenario (riodp sim with no argument): tree saturation across a two-stage
# fabric (Pfister & Norton 1985), run three ways.
#
# Two switches in series (a 2 x 1 mesh), four hosts on each. Host links are 1x 3.125 Gbaud
# (2.5 Gbit/s); the link between the switches is 4x (10 Gbit/s), so it is never the bottleneck.
# Hosts 0, 1 and 2 on the first switch and hosts 6 and 7 on the second send to the hotspot, host 4,
# at 0.9 of their link each: 4.5 times what host 4's link can take. Host 3 sends victim traffic to
# host 5 over the same switch-to-switch link, at 0.8 of its link; nothing else goes to host 5.
#
#   no congestion control: the hotspot's output queue fills, the packets for it fill the second
#     switch's input buffer from the first switch, and the victim packets queued behind them wait:
#     the tree of full buffers reaches back to host 3, and victim throughput collapses.
#   Part 9 XON/XOFF: the hotspot output queue's congestion point XOFFs the hotspot flows at their
#     sources; the victim flow keeps its offered load.
#   VoQ backpressure: the second switch tells the first that its port to host 4 is congested; the
#     first switch holds the packets for that port in their own staging queue and lets the victim
#     packets pass: no head-of-line blocking across the two stages.
name: two-stage hotspot
description: Tree saturation across two switches in series; no control, Part 9 XON/XOFF, VoQ backpressure.
seed: 1
duration: 4ms
warmup: 500us
topology:
  kind: mesh
  width: 2
  height: 1
  hostsPerSwitch: 4
link:
  lanes: 1
  baud: 3.125
  encoding: 8b10b
  propagation: 20ns
linkOverrides:
  - match: "*-*"
    lanes: 4
switch:
  queueing: output-queued
  speedup: 4
  inputBuffer:
    packets: 8
  outputBuffer:
    packets: 32
endpoints:
  buffers:
    packets: 8
  queuePdus: 64
traffic:
  - group: hotspot
    pattern: incast
    sink: 4
    sources: [0, 1, 2, 6, 7]
    load: 0.9
    sizes: 256B
  - group: victim
    pattern: incast
    sink: 5
    sources: [3]
    load: 0.8
    sizes: 256B
output:
  sampleInterval: 20us
variants:
  - name: no congestion control
    overrides: {}
  - name: Part 9 XON/XOFF
    overrides:
      switch:
        congestion:
          highWatermark: 8
          lowWatermark: 4
  - name: VoQ backpressure
    overrides:
      switch:
        queueing: cioq-voq-backpressure
        voq:
          high: 8
          low: 4
`;

/**
 * The built-in scenario (`riodp sim` with no argument), parsed.
 *
 * @example
 * ```ts
 * import { builtinScenario } from 'riodp/sim';
 *
 * const scenario = builtinScenario(); // what `riodp sim` runs with no argument
 * console.log(scenario.name, scenario.variants.map((v) => v.name), scenario.variants[0]?.fabric.kind);
 * // two-stage hotspot [ 'no congestion control', 'Part 9 XON/XOFF', 'VoQ backpressure' ] mesh 2x1, 4 hosts per switch
 * ```
 */
export function builtinScenario(): Scenario {
  return parseScenario(BUILTIN_SCENARIO_TEXT);
}
