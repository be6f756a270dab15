/** A fixed-capacity FIFO; pushing into a full buffer evicts (and returns) the oldest entry. */
export class RingBuffer<T> {
  private readonly entries: Array<T | undefined>;
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`capacity must be a non-negative integer, got ${capacity}`);
    this.entries = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** The i-th oldest entry. */
  at(index: number): T {
    if (index < 0 || index >= this.count) throw new RangeError(`index ${index} out of range`);
    return this.entries[(this.start + index) % this.capacity] as T;
  }

  push(entry: T): T | undefined {
    if (this.capacity === 0) return entry;
    if (this.count < this.capacity) {
      this.entries[(this.start + this.count) % this.capacity] = entry;
      this.count++;
      return undefined;
    }
    const evicted = this.entries[this.start] as T;
    this.entries[this.start] = entry;
    this.start = (this.start + 1) % this.capacity;
    return evicted;
  }

  clear(): void {
    this.entries.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
