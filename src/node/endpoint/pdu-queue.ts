/**
 * A source flow's queue of PDUs: a bounded ring of (id, bytes, created) triples in one array that
 * grows to the bound on demand, so queueing a PDU allocates nothing and the head leaves in O(1)
 * (no Array.shift on long queues). The array is allocated at the first PDU: an end point of a
 * large fabric has a queue per destination, most of which never hold anything (issue 20:
 * uniform traffic over 1024 end points is a million flows).
 */
const EMPTY = new Float64Array(0);

export class PduQueue {
  readonly limit: number;
  /** [id, bytes, created] of each place, 3 numbers a place. */
  #slots: Float64Array = EMPTY;
  #cap = 0;
  #head = 0;
  #length = 0;
  /** Payload bytes of every queued PDU, the head's unsent part only. */
  #queuedBytes = 0;
  /** Of the head PDU: payload bytes sent and packets sent. */
  headSent = 0;
  headPackets = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get length(): number {
    return this.#length;
  }

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** Queues a PDU; false when the queue holds `limit` PDUs already. */
  push(id: number, bytes: number, created: number): boolean {
    if (this.#length === this.limit) return false;
    if (this.#length === this.#cap) this.#grow();
    const i = 3 * ((this.#head + this.#length) % this.#cap);
    const a = this.#slots;
    a[i] = id;
    a[i + 1] = bytes;
    a[i + 2] = created;
    this.#length++;
    this.#queuedBytes += bytes;
    return true;
  }

  get headId(): number {
    return this.#slots[3 * this.#head] ?? 0;
  }

  get headBytes(): number {
    return this.#slots[3 * this.#head + 1] ?? 0;
  }

  get headCreated(): number {
    return this.#slots[3 * this.#head + 2] ?? 0;
  }

  /** `payload` more bytes of the head PDU went out in one packet. */
  sent(payload: number): void {
    this.headSent += payload;
    this.headPackets++;
    this.#queuedBytes -= payload;
  }

  /** The head PDU is fully sent. */
  shift(): void {
    this.#queuedBytes -= this.headBytes - this.headSent;
    this.#head = (this.#head + 1) % this.#cap;
    this.#length--;
    this.headSent = 0;
    this.headPackets = 0;
  }

  #grow(): void {
    const cap = this.#cap === 0 ? Math.min(this.limit, 4) : Math.min(this.limit, this.#cap * 2);
    const b = new Float64Array(3 * cap);
    const a = this.#slots;
    for (let k = 0; k < this.#length; k++) {
      const from = 3 * ((this.#head + k) % this.#cap);
      b[3 * k] = a[from] as number;
      b[3 * k + 1] = a[from + 1] as number;
      b[3 * k + 2] = a[from + 2] as number;
    }
    this.#slots = b;
    this.#cap = cap;
    this.#head = 0;
  }
}
