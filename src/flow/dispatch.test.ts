import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TYPE7_COMMAND } from '../wire/type7.ts';
import { ccpTarget } from './dispatch.ts';

test('Part 9 §3.3: without flow arbitration the FAM bits are ignored and every Type 7 is congestion management', () => {
  for (const command of Object.values(TYPE7_COMMAND)) assert.equal(ccpTarget({ command }, false), 'congestion');
});

test('Part 9 §3.3 Table 3-2: with flow arbitration, XON/XOFF(ARB) go to the transmitter, REQUEST/RELEASE to the receiver', () => {
  assert.equal(ccpTarget({ command: 'XOFF' }, true), 'congestion');
  assert.equal(ccpTarget({ command: 'XON' }, true), 'congestion');
  assert.equal(ccpTarget({ command: 'XON_ARB' }, true), 'arb-tx');
  assert.equal(ccpTarget({ command: 'XOFF_ARB' }, true), 'arb-tx');
  assert.equal(ccpTarget({ command: 'REQUEST_SINGLE_PDU' }, true), 'arb-rx');
  assert.equal(ccpTarget({ command: 'REQUEST_MULTI_PDU' }, true), 'arb-rx');
  assert.equal(ccpTarget({ command: 'RELEASE' }, true), 'arb-rx');
  assert.equal(ccpTarget({ command: 'UNDEFINED' }, true), 'undefined');
});
