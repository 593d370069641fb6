/**
 * The write-once/resettable lock shared by the Host Base Device ID Lock CSR (Part 3 §3.5.3) and
 * the Session Management Protocol Register Write Enable CSR, whose "operation ... is identical"
 * (Annex 2 §5.2.2):
 * - unlocked (the field holds the unlocked value, 0xFFFF): a write sets the field to the value
 *   written ("Writing 0xFFFF ... when the Lock_Val field is 0xFFFF has no effect" follows);
 * - locked: writing the value held releases it ("resets the Lock_Val field to 0xFFFF");
 *   writing any other value "does not affect the value of the Lock_Val field".
 * Returns the new field value.
 *
 * @example
 * ```ts
 * import { HOST_LOCK_UNLOCKED, lockWrite } from 'riodp/registers';
 *
 * let lock = HOST_LOCK_UNLOCKED;
 * lock = lockWrite(lock, 0x0001, HOST_LOCK_UNLOCKED); // → 0x0001: host 0x0001 takes the lock
 * lock = lockWrite(lock, 0x0002, HOST_LOCK_UNLOCKED); // → 0x0001: another host's write has no effect
 * lock = lockWrite(lock, 0x0001, HOST_LOCK_UNLOCKED); // → 0xffff: the owner's write releases it
 * ```
 */
export function lockWrite(current: number, written: number, unlocked: number): number {
  if (current === unlocked) return written;
  return written === current ? unlocked : current;
}
