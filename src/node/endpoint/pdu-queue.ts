/**
 * A source flow's queue of PDUs: a bounded ring of (id, bytes, created) in parallel arrays that
 * grow to the bound on demand, so queueing a PDU allocates nothing and the head leaves in O(1)
 * (no Array.shift on long queues).
 */
export class PduQueue {
  readonly limit: number;
  #ids: Float64Array;
  #bytes: Float64Array;
  #created: Float64Array;
  #head = 0;
  #length = 0;
  /** Payload bytes of every queued PDU, the head's unsent part only. */
  #queuedBytes = 0;
  /** Of the head PDU: payload bytes sent and packets sent. */
  headSent = 0;
  headPackets = 0;

  constructor(limit: number) {
    this.limit = limit;
    const cap = Math.min(limit, 4);
    this.#ids = new Float64Array(cap);
    this.#bytes = new Float64Array(cap);
    this.#created = new Float64Array(cap);
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
    if (this.#length === this.#ids.length) this.#grow();
    const cap = this.#ids.length;
    const i = (this.#head + this.#length) % cap;
    this.#ids[i] = id;
    this.#bytes[i] = bytes;
    this.#created[i] = created;
    this.#length++;
    this.#queuedBytes += bytes;
    return true;
  }

  get headId(): number {
    return this.#ids[this.#head] as number;
  }

  get headBytes(): number {
    return this.#bytes[this.#head] as number;
  }

  get headCreated(): number {
    return this.#created[this.#head] as number;
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
    this.#head = (this.#head + 1) % this.#ids.length;
    this.#length--;
    this.headSent = 0;
    this.headPackets = 0;
  }

  #grow(): void {
    const cap = Math.min(this.limit, this.#ids.length * 2);
    const move = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      for (let k = 0; k < this.#length; k++) b[k] = a[(this.#head + k) % a.length] as number;
      return b;
    };
    this.#ids = move(this.#ids);
    this.#bytes = move(this.#bytes);
    this.#created = move(this.#created);
    this.#head = 0;
  }
}
