import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type9Node } from '../../test/support/endpoint-net.ts';
import { DS_CONTROL_OFFSET, DS_INFO_OFFSET, decodeDsControl, decodeDsInfo, getMtuBytes } from '../registers/data-streaming.ts';
import { DESTINATION_OPERATIONS_OFFSET, OPERATIONS_BITS, SOURCE_OPERATIONS_OFFSET } from '../registers/operations.ts';
import type { FabricTmConfig } from './endpoint/tm-config.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import { answerMaintenance } from './maintenance.ts';
import { SessionEndpoint } from './session-endpoint.ts';

/**
 * What a fabric end point's Data Streaming Logical Layer Control CSR (0x48) and Operations CARs
 * say of its traffic management and MTU (issue 18 item 5 d; Part 10 §5.5.1 Table 5-6, §5.4.1–§5.4.2).
 */

function endpoint(tm?: FabricTmConfig): FabricEndpoint {
  return new FabricEndpoint({ ...type9Node(1, 0xfff1), ...(tm === undefined ? {} : { tm }) });
}

const tmBit = (e: FabricEndpoint, offset: number): boolean => (e.registers.readWord(offset) & OPERATIONS_BITS.dataStreamingTrafficManagement) !== 0;

test('Part 10 §5.5.1 Table 5-6 TM Types Supported: an end point with traffic management reads a valid combination (0b1000, 0b1100, 0b1010, 0b1110) and its TM Mode at 0x48, and bit 12 in both Operations CARs', () => {
  const cases: [FabricTmConfig, number, string, number][] = [
    [{}, 0b1000, 'BASIC', 1],
    [{ mode: 'RATE' }, 0b1100, 'RATE', 2],
    [{ mode: 'CREDIT' }, 0b1010, 'CREDIT', 3],
    [{ mode: 'CREDIT_RATE' }, 0b1110, 'CREDIT_RATE', 4],
    [{ mode: 'BASIC', types: 'BASIC_RATE_CREDIT' }, 0b1110, 'BASIC', 1],
    // Supported but switched off: the types stay advertised, the mode reads TM Disabled.
    [{ mode: 'DISABLED', types: 'BASIC' }, 0b1000, 'DISABLED', 0],
  ];
  for (const [tm, types, name, mode] of cases) {
    const e = endpoint(tm);
    const word = e.registers.readWord(DS_CONTROL_OFFSET);
    // Strict decoding refuses an invalid combination or a mode the types do not support.
    const csr = decodeDsControl(word, { strict: true });
    assert.deepEqual([csr.tmTypesSupported, csr.tmModeName, csr.tmMode], [types, name, mode], JSON.stringify(tm));
    assert.equal(getMtuBytes(e.registers), 256);
    assert.deepEqual([tmBit(e, SOURCE_OPERATIONS_OFFSET), tmBit(e, DESTINATION_OPERATIONS_OFFSET)], [true, true]);
  }
});

test('Part 10 §5.5.1 Table 5-6, §3.4.5 rule 1 (decision): an end point without traffic management reads TM Types 0b0000 and Operations CAR bit 12 clear: "Supporting traffic management is entirely optional", and every valid combination would claim Basic', () => {
  for (const e of [endpoint(), endpoint({ mode: 'DISABLED' })]) {
    const csr = decodeDsControl(e.registers.readWord(DS_CONTROL_OFFSET));
    assert.deepEqual([csr.tmTypesSupported, csr.tmTypes, csr.tmModeName], [0, 'NONE', 'DISABLED']);
    assert.deepEqual([tmBit(e, SOURCE_OPERATIONS_OFFSET), tmBit(e, DESTINATION_OPERATIONS_OFFSET)], [false, false]);
  }
});

test('Part 10 §5.5.1 Table 5-6 MTU: registers.dataStreaming replaces the Data Streaming defaults field by field; its mtu is the Type 9 conveyance\'s, and two different MTUs are a configuration error', () => {
  const base = type9Node(1, 0xfff1);
  const e = new SessionEndpoint({ ...base, registers: { dataStreaming: { mtu: 64, segSupport: 8 } } });
  assert.equal(getMtuBytes(e.registers), 64);
  assert.equal((e.snapshot()['type9'] as { segmenter: { mtu: number } }).segmenter.mtu, 64);
  // SegSupport 8 in bits 16–31 of the Data Streaming Information CAR (0x3C), MaxPDU still 64K (0).
  assert.equal(e.registers.readWord(0x3c), 8);
  assert.throws(() => new SessionEndpoint({ ...base, type9: { mtu: 128 }, registers: { dataStreaming: { mtu: 64 } } }), /^RangeError: registers\.dataStreaming\.mtu must equal type9\.mtu \(128\)/);
});

test('Part 10 §5.4.3 Table 5-5 SegSupport, §3.2.4 "The number of segmentation contexts … is specified in a CAR": the Data Streaming Information CAR reads the reassembler\'s type9.segSupport', () => {
  const base = type9Node(1, 0xfff1);
  // [type9.segSupport, the CAR's SegSupport field, the reassembler's contexts]
  const cases: [number | undefined, number, number][] = [[undefined, 0, 65536], [16, 16, 16], [1, 1, 1], [0xffff, 0xffff, 0xffff], [0, 0, 65536], [65536, 0, 65536]];
  for (const [segSupport, field, contexts] of cases) {
    const e = new FabricEndpoint({ ...base, type9: segSupport === undefined ? {} : { segSupport } });
    const info = decodeDsInfo(e.registers.readWord(DS_INFO_OFFSET));
    assert.deepEqual([info.segSupport, info.segContexts, info.maxPduBytes], [field, contexts, 65536], `type9.segSupport ${String(segSupport)}`);
    assert.equal(e.snapshot().endpoint.type9?.reassembler.contextLimit, contexts);
  }
  // Also as a peer reads it: a MAINTENANCE read of 0x3C.
  const e = new SessionEndpoint({ ...base, type9: { segSupport: 16 } });
  const a = answerMaintenance(e.registers, maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 2, hopCount: 0, srcTID: 0, byteOffset: DS_INFO_OFFSET, byteCount: 4 }));
  assert.ok(a.ok);
  assert.deepEqual([...a.response.payload.subarray(4, 8)], [0x00, 0x00, 0x00, 0x10], 'MaxPDU 0x0000 (64K), SegSupport 0x0010 in the word at 0x3C');
});

test('Part 10 §5.4.3 Table 5-5 SegSupport: registers.dataStreaming.segSupport alone reaches the reassembler too; one that disagrees with type9.segSupport is a configuration error, as is a type9.segSupport out of range', () => {
  const base = type9Node(1, 0xfff1);
  const e = new FabricEndpoint({ ...base, registers: { dataStreaming: { segSupport: 8 } } });
  assert.equal(decodeDsInfo(e.registers.readWord(DS_INFO_OFFSET)).segContexts, 8);
  assert.equal(e.snapshot().endpoint.type9?.reassembler.contextLimit, 8);
  // 0 and 65536 both encode 64K contexts: they agree.
  assert.equal(new FabricEndpoint({ ...base, type9: { segSupport: 0 }, registers: { dataStreaming: { segSupport: 65536 } } }).registers.readWord(DS_INFO_OFFSET), 0);
  assert.throws(() => new FabricEndpoint({ ...base, type9: { segSupport: 16 }, registers: { dataStreaming: { segSupport: 8 } } }), /^RangeError: registers\.dataStreaming\.segSupport must equal the contexts of type9\.segSupport \(16\)/);
  assert.throws(() => new FabricEndpoint({ ...base, type9: { segSupport: 65537 } }), /^RangeError: type9\.segSupport must be an integer from 0 to 65536/);
});
