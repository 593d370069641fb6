import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegisterError } from './errors.ts';
import { DESTINATION_OPERATIONS_OFFSET, OperationsCar, SOURCE_OPERATIONS_OFFSET, decodeOperations, destinationOperations, encodeOperations, operationsRegister, sourceOperations } from './operations.ts';
import { RegisterSpace } from './space.ts';

function fresh(): RegisterSpace {
  return new RegisterSpace([operationsRegister(OperationsCar.source, 0), operationsRegister(OperationsCar.destination, 0)]);
}

test('Part 10 §5.4.1 Table 5-3: Source Operations CAR bit 12 Data-Streaming TM is 0x00080000, bit 13 Data-streaming 0x00040000', () => {
  const s = fresh();
  sourceOperations.set(s, 'dataStreamingTrafficManagement', true);
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0x00080000);
  sourceOperations.update(s, { dataStreamingTrafficManagement: false, dataStreaming: true });
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0x00040000);
});

test('Part 10 §5.4.2 Table 5-4: Destination Operations CAR bit 12 Data Streaming Traffic Management is 0x00080000, bit 13 0x00040000', () => {
  const s = fresh();
  destinationOperations.update(s, { dataStreamingTrafficManagement: true, dataStreaming: true });
  assert.equal(s.readWord(DESTINATION_OPERATIONS_OFFSET), 0x000c0000);
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0);
});

test('Part 2 §5.4.1 Table 5-3: bit 20 Data message is 0x00000800, bit 21 Doorbell 0x00000400', () => {
  const s = fresh();
  sourceOperations.set(s, 'dataMessage', true);
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0x00000800);
  sourceOperations.set(s, 'doorbell', true);
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0x00000c00);
});

test('Part 1 §5.4.7 Table 5-9: bit 16 Read is 0x00008000, bit 29 Port-write 0x00000004, bits 22-28 atomics 0x000003F8', () => {
  const s = fresh();
  sourceOperations.update(s, { read: true, portWrite: true });
  assert.equal(s.readWord(SOURCE_OPERATIONS_OFFSET), 0x00008004);
  const word = encodeOperations({ ...decodeOperations(0, 'source'), atomicCompareAndSwap: true, atomicTestAndSwap: true, atomicIncrement: true, atomicDecrement: true, atomicSet: true, atomicClear: true, atomicSwap: true }, 'source');
  assert.equal(word, 0x000003f8);
});

test('Part 10 §5.4 / §5.3 Table 5-2: Operations CARs are read-only; bits 0-11 reserved read 0; 14-15 and 30-31 implementation-defined', () => {
  const s = fresh();
  s.writeWord(DESTINATION_OPERATIONS_OFFSET, 0xffffffff);
  assert.equal(s.readWord(DESTINATION_OPERATIONS_OFFSET), 0);
  s.writeLocal(DESTINATION_OPERATIONS_OFFSET, 0xffffffff);
  assert.equal(s.readWord(DESTINATION_OPERATIONS_OFFSET), 0x000fffff);
  const v = decodeOperations(0x0003_0003, 'destination');
  assert.equal(v.implementationDefinedBits14To15, 3);
  assert.equal(v.implementationDefinedBits30To31, 3);
});

test('Part 10 §5.4.1 Table 5-3: lenient decode keeps reserved bits 0-11 in rsrv; strict throws', () => {
  const v = decodeOperations(0x80040000, 'source');
  assert.equal(v.dataStreaming, true);
  assert.equal(v.rsrv, 0x80000000);
  assert.equal(encodeOperations(v, 'source'), 0x80040000);
  assert.throws(() => decodeOperations(0x80040000, 'source', { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'reserved' && e.offset === SOURCE_OPERATIONS_OFFSET);
});

test('Part 10 §5.4.2 Table 5-4: an encode error names the Destination Operations CAR offset 0x1C', () => {
  const v = { ...decodeOperations(0, 'destination'), rsrv: 0x00040000 };
  assert.throws(() => encodeOperations(v, 'destination'), (e: unknown) => e instanceof RegisterError && e.code === 'range' && e.offset === DESTINATION_OPERATIONS_OFFSET);
});
