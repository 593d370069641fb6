import { ASSEMBLY_INFO_OFFSET } from './ef-chain.ts';
import { RegisterView, fieldMask } from './fields.ts';
import { lockWrite } from './lock.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpec } from './space.ts';

/**
 * The common registers every endpoint has besides the ones this area types in detail:
 * Part 1 §5.4.1–5.4.4 (identity and assembly CARs, ExtendedFeaturesPtr) and Part 3 §3.5.1–3.5.3
 * (base device IDs and the Host Base Device ID Lock CSR).
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
/** The Host Base Device ID Lock CSR's value when no host holds it (Part 3 §3.5.3). */
export const HOST_LOCK_UNLOCKED = 0x0000ffff;

/** The Device Identity CAR's view. */
export const deviceIdentityView = new RegisterView('Device Identity CAR', 'Part 1 §5.4.1 Table 5-3', {
  deviceIdentity: { bit: 0, width: 16 },
  deviceVendorIdentity: { bit: 16, width: 16 },
} as const);
/** The Assembly Identity CAR's view. */
export const assemblyIdentityView = new RegisterView('Assembly Identity CAR', 'Part 1 §5.4.3 Table 5-5', {
  assyIdentity: { bit: 0, width: 16 },
  assyVendorIdentity: { bit: 16, width: 16 },
} as const);
/** The Assembly Information CAR's view. */
export const assemblyInformationView = new RegisterView('Assembly Information CAR', 'Part 1 §5.4.4 Table 5-6', {
  assyRev: { bit: 0, width: 16 },
  extendedFeaturesPtr: { bit: 16, width: 16 },
} as const);
/** The Base Device ID CSR's view. */
export const baseDeviceIdView = new RegisterView('Base Device ID CSR', 'Part 3 §3.5.1 Table 3-5', {
  dev8BaseDeviceId: { bit: 8, width: 8 },
  dev16BaseDeviceId: { bit: 16, width: 16 },
} as const);
/** The Host Base Device ID Lock CSR's view. */
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
