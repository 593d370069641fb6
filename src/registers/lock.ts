/**
 * The write-once/resettable lock shared by the Host Base Device ID Lock CSR (Part 3 §3.5.3) and
 * the Session Management Protocol Register Write Enable CSR, whose "operation ... is identical"
 * (Annex 2 §5.2.2):
 * - unlocked (the field holds the unlocked value, 0xFFFF): a write sets the field to the value
 *   written ("Writing 0xFFFF ... when the Lock_Val field is 0xFFFF has no effect" follows);
 * - locked: writing the value held releases it ("resets the Lock_Val field to 0xFFFF");
 *   writing any other value "does not affect the value of the Lock_Val field".
 * Returns the new field value.
 */
export function lockWrite(current: number, written: number, unlocked: number): number {
  if (current === unlocked) return written;
  return written === current ? unlocked : current;
}
