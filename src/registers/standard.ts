import { ASSEMBLY_INFO_OFFSET } from './ef-chain.ts';
import { RegisterView, fieldMask } from './fields.ts';
import { lockWrite } from './lock.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpec } from './space.ts';

/**
 * The common registers every endpoint has besides the ones this area types in detail:
 * Part 1 §5.4.1–5.4.4 (identity and assembly CARs, ExtendedFeaturesPtr) and Part 3 §3.5.1–3.5.3
 * (base device IDs and the Host Base Device ID Lock CSR).
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, buildEndpointRegisters, deviceIdentityView } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ deviceIdentity: 0x1234, deviceVendorIdentity: 0x0038 });
 * const id = deviceIdentityView.unpack(space.readWord(STANDARD_OFFSETS.deviceIdentity));
 * console.log(id.deviceIdentity.toString(16), id.deviceVendorIdentity.toString(16)); // 1234 38
 * ```
 */
export const STANDARD_OFFSETS = {
  deviceIdentity: 0x0,
  deviceInformation: 0x4,
  assemblyIdentity: 0x8,
  assemblyInformation: ASSEMBLY_INFO_OFFSET,
  baseDeviceId: 0x60,
  dev32BaseDeviceId: 0x64,
  hostBaseDeviceIdLock: 0x68,
} as const;

export const CLAUSE_HOST_LOCK = 'Part 3 §3.5.3 Table 3-7';
/**
 * The Host Base Device ID Lock CSR's value when no host holds it (Part 3 §3.5.3).
 *
 * @example
 * ```ts
 * import { HOST_LOCK_UNLOCKED, STANDARD_OFFSETS, buildEndpointRegisters } from 'riodp/registers';
 *
 * // Host 0x0001 claims the element by MAINTENANCE writes and reads back to check it owns it.
 * const space = buildEndpointRegisters();
 * space.writeWord(STANDARD_OFFSETS.hostBaseDeviceIdLock, 0x0001);
 * const owner = space.readWord(STANDARD_OFFSETS.hostBaseDeviceIdLock); // → 1
 * space.writeWord(STANDARD_OFFSETS.hostBaseDeviceIdLock, owner);       // the owner releases it
 * space.readWord(STANDARD_OFFSETS.hostBaseDeviceIdLock) === HOST_LOCK_UNLOCKED; // → true
 * ```
 */
export const HOST_LOCK_UNLOCKED = 0x0000ffff;

/**
 * The Device Identity CAR's view.
 *
 * @example
 * ```ts
 * import { deviceIdentityView } from 'riodp/registers';
 *
 * // The word a MAINTENANCE read of offset 0x0 returned.
 * deviceIdentityView.unpack(0x12340038); // → { deviceIdentity: 0x1234, deviceVendorIdentity: 0x0038, rsrv: 0 }
 * ```
 */
export const deviceIdentityView = new RegisterView('Device Identity CAR', 'Part 1 §5.4.1 Table 5-3', {
  deviceIdentity: { bit: 0, width: 16 },
  deviceVendorIdentity: { bit: 16, width: 16 },
} as const);
/**
 * The Assembly Identity CAR's view.
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, assemblyIdentityView, buildEndpointRegisters } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ assyIdentity: 0x0001, assyVendorIdentity: 0x0038 });
 * assemblyIdentityView.unpack(space.readWord(STANDARD_OFFSETS.assemblyIdentity)); // → { assyIdentity: 1, assyVendorIdentity: 0x38, rsrv: 0 }
 * ```
 */
export const assemblyIdentityView = new RegisterView('Assembly Identity CAR', 'Part 1 §5.4.3 Table 5-5', {
  assyIdentity: { bit: 0, width: 16 },
  assyVendorIdentity: { bit: 16, width: 16 },
} as const);
/**
 * The Assembly Information CAR's view.
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, assemblyInformationView, buildEndpointRegisters } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ assyRev: 2 });
 * const info = assemblyInformationView.unpack(space.readWord(STANDARD_OFFSETS.assemblyInformation));
 * console.log(info.assyRev, info.extendedFeaturesPtr.toString(16)); // 2 100: the first extended features block
 * ```
 */
export const assemblyInformationView = new RegisterView('Assembly Information CAR', 'Part 1 §5.4.4 Table 5-6', {
  assyRev: { bit: 0, width: 16 },
  extendedFeaturesPtr: { bit: 16, width: 16 },
} as const);
/**
 * The Base Device ID CSR's view.
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, baseDeviceIdView, buildEndpointRegisters } from 'riodp/registers';
 *
 * // Enumeration gives the end point device ID 5 with a MAINTENANCE write.
 * const space = buildEndpointRegisters();
 * space.writeWord(STANDARD_OFFSETS.baseDeviceId, baseDeviceIdView.pack({ dev8BaseDeviceId: 0x05, dev16BaseDeviceId: 0x0005 }));
 * space.readWord(STANDARD_OFFSETS.baseDeviceId); // → 0x00050005
 * ```
 */
export const baseDeviceIdView = new RegisterView('Base Device ID CSR', 'Part 3 §3.5.1 Table 3-5', {
  dev8BaseDeviceId: { bit: 8, width: 8 },
  dev16BaseDeviceId: { bit: 16, width: 16 },
} as const);
/**
 * The Host Base Device ID Lock CSR's view.
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, buildEndpointRegisters, hostBaseDeviceIdLockView } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters();
 * space.writeWord(STANDARD_OFFSETS.hostBaseDeviceIdLock, 0x0001); // host 0x0001 takes the lock
 * space.writeWord(STANDARD_OFFSETS.hostBaseDeviceIdLock, 0x0002); // host 0x0002 is too late: ignored
 * hostBaseDeviceIdLockView.unpack(space.readWord(STANDARD_OFFSETS.hostBaseDeviceIdLock)).hostBaseDeviceId; // → 1
 * ```
 */
export const hostBaseDeviceIdLockView = new RegisterView('Host Base Device ID Lock CSR', CLAUSE_HOST_LOCK, {
  hostBaseDev32Id: { bit: 0, width: 16 },
  hostBaseDeviceId: { bit: 16, width: 16 },
} as const);

/** The identity and IDs of a processing element's standard registers. */
export interface StandardRegisterOptions {
  readonly deviceIdentity?: number;
  readonly deviceVendorIdentity?: number;
  readonly deviceRev?: number;
  readonly assyIdentity?: number;
  readonly assyVendorIdentity?: number;
  readonly assyRev?: number;
  readonly extendedFeaturesPtr: number;
  readonly dev8BaseDeviceId?: number;
  readonly dev16BaseDeviceId?: number;
  /** Present only when the PE supports Dev32 (PE Features bit 19). */
  readonly dev32BaseDeviceId?: number;
  readonly dev32: boolean;
}

function car(offset: number, name: string, clause: string, reset: number): RegisterSpec {
  return { offset, name, kind: RegisterKind.car, clause, reset: reset >>> 0 };
}

export function standardRegisters(o: StandardRegisterOptions): RegisterSpec[] {
  const specs: RegisterSpec[] = [
    car(STANDARD_OFFSETS.deviceIdentity, deviceIdentityView.register, deviceIdentityView.clause, deviceIdentityView.pack({ deviceIdentity: o.deviceIdentity ?? 0, deviceVendorIdentity: o.deviceVendorIdentity ?? 0 })),
    car(STANDARD_OFFSETS.deviceInformation, 'Device Information CAR', 'Part 1 §5.4.2 Table 5-4', o.deviceRev ?? 0),
    car(STANDARD_OFFSETS.assemblyIdentity, assemblyIdentityView.register, assemblyIdentityView.clause, assemblyIdentityView.pack({ assyIdentity: o.assyIdentity ?? 0, assyVendorIdentity: o.assyVendorIdentity ?? 0 })),
    car(STANDARD_OFFSETS.assemblyInformation, assemblyInformationView.register, assemblyInformationView.clause, assemblyInformationView.pack({ assyRev: o.assyRev ?? 0, extendedFeaturesPtr: o.extendedFeaturesPtr })),
    {
      offset: STANDARD_OFFSETS.baseDeviceId,
      name: baseDeviceIdView.register,
      kind: RegisterKind.csr,
      clause: baseDeviceIdView.clause,
      reset: baseDeviceIdView.pack({ dev8BaseDeviceId: o.dev8BaseDeviceId ?? 0xff, dev16BaseDeviceId: o.dev16BaseDeviceId ?? 0xffff }),
      writable: baseDeviceIdView.mask,
      reserved: fieldMask(0, 8),
    },
    hostBaseDeviceIdLockRegister(o.dev32),
  ];
  if (o.dev32) {
    specs.push({ offset: STANDARD_OFFSETS.dev32BaseDeviceId, name: 'Dev32 Base Device ID CSR', kind: RegisterKind.csr, clause: 'Part 3 §3.5.2 Table 3-6', reset: (o.dev32BaseDeviceId ?? 0xffffffff) >>> 0, writable: 0xffffffff });
  }
  return specs;
}

/**
 * "Once the Host Base Device ID Lock CSR is written, all subsequent writes to the register are
 * ignored, except in the case that the value written matches the value contained in the
 * register. In this case, the register is re-initialized to 0x0000_FFFF." Reset 0x0000FFFF;
 * bits 0–15 are reserved (constant 0) unless the PE supports Dev32.
 */
export function hostBaseDeviceIdLockRegister(dev32: boolean): RegisterSpec {
  const reserved = dev32 ? 0 : fieldMask(0, 16);
  return {
    offset: STANDARD_OFFSETS.hostBaseDeviceIdLock,
    name: hostBaseDeviceIdLockView.register,
    kind: RegisterKind.csr,
    clause: CLAUSE_HOST_LOCK,
    reset: HOST_LOCK_UNLOCKED,
    writable: ~reserved >>> 0,
    reserved,
    onWrite: ({ current, value }) => lockWrite(current, (value & ~reserved) >>> 0, HOST_LOCK_UNLOCKED),
  };
}
