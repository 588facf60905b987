/**
 * The one concurrency primitive: work that runs at most `size` at a time per key, in the order
 * it arrived. `new Gate()` is a mutex per key (a user's tree changes one at a time);
 * `new Gate(() => setting)` a semaphore whose size is read whenever a slot is wanted (the OCR
 * parallelism setting).
 */
export class Gate {
  private readonly keys = new Map<string, { busy: number; waiting: Array<() => void> }>();

  constructor(private readonly size: number | (() => number | Promise<number>) = 1) {}

  /** Run `work` when a slot of `key` is free (work of other keys does not wait for it). */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    await this.enter(key);
    try {
      return await work();
    } finally {
      await this.leave(key);
    }
  }

  private limit(): number | Promise<number> {
    return typeof this.size === 'number' ? this.size : this.size();
  }

  private slotOf(key: string) {
    let slot = this.keys.get(key);
    if (!slot) {
      slot = { busy: 0, waiting: [] };
      this.keys.set(key, slot);
    }
    return slot;
  }

  private async enter(key: string): Promise<void> {
    // whoever waits already goes first; a freed slot is handed on, never taken over
    if (this.slotOf(key).waiting.length === 0) {
      const limit = this.limit();
      const size = typeof limit === 'number' ? limit : await limit;
      const slot = this.slotOf(key);
      if (slot.busy < size && slot.waiting.length === 0) {
        slot.busy += 1;
        return;
      }
    }
    const { waiting } = this.slotOf(key);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  private async leave(key: string): Promise<void> {
    const limit = this.limit();
    const size = typeof limit === 'number' ? limit : await limit;
    const slot = this.slotOf(key);
    // a smaller size takes effect as slots come back
    const next = slot.busy <= size ? slot.waiting.shift() : undefined;
    if (next) next();
    else slot.busy -= 1;
    if (slot.busy === 0 && slot.waiting.length === 0) this.keys.delete(key);
  }
}
