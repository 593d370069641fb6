import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { findEfBlocks } from '../registers/ef-chain.ts';
import { LP_SERIAL_LAYOUT, PORT_CONTROL_BITS, portControlOffset } from '../registers/port-control.ts';
import { arbitrationEnabled, flowControlPorts, readFlowSettings } from './register-settings.ts';

test('Part 9 §4.2 Table 4-1: the engines read Flow Control and Flow Arbitration Support from the PE Features CAR', () => {
  const off = readFlowSettings(buildEndpointRegisters({ ports: 2 }));
  assert.equal(off.flowControlSupport, false);
  assert.equal(off.flowArbitrationSupport, false);
  assert.equal(off.crfSupported, true);
  const on = readFlowSettings(buildEndpointRegisters({ ports: 2, flowControl: true, flowArb: true, crf: false }));
  assert.equal(on.flowControlSupport, true);
  assert.equal(on.flowArbitrationSupport, true);
  assert.equal(on.crfSupported, false);
  assert.equal(on.ports.length, 2);
});

test('Part 9 §4.3 Table 4-2: CCPs go only to ports whose Flow Control Participant bit is set', () => {
  const space = buildEndpointRegisters({ ports: 3, flowControl: true, flowArb: true });
  const [base] = findEfBlocks(space, LP_SERIAL_LAYOUT.I.efId);
  assert.ok(base !== undefined);
  assert.deepEqual(flowControlPorts(readFlowSettings(space)), [0, 1, 2], 'the builder initialises participation when flow control is configured');
  // Back to the reset value 0b0 of bits 13 and 15 on every port.
  for (let n = 0; n < 3; n++) {
    const o = portControlOffset(base, n);
    space.writeWord(o, space.readWord(o) & ~(PORT_CONTROL_BITS.flowControlParticipant | PORT_CONTROL_BITS.flowArbitrationParticipant));
  }
  const s0 = readFlowSettings(space);
  assert.deepEqual(flowControlPorts(s0), []);
  assert.equal(arbitrationEnabled(s0, 0), false);
  const p1 = portControlOffset(base, 1);
  space.writeWord(p1, space.readWord(p1) | PORT_CONTROL_BITS.flowControlParticipant | PORT_CONTROL_BITS.flowArbitrationParticipant);
  const s1 = readFlowSettings(space);
  assert.deepEqual(flowControlPorts(s1), [1]);
  assert.equal(arbitrationEnabled(s1, 1), true);
  assert.equal(arbitrationEnabled(s1, 0), false);
  assert.equal(arbitrationEnabled(readFlowSettings(buildEndpointRegisters({ ports: 1 })), 0), false, 'no CAR support, no arbitration');
});
