/** A delivery waiting for its transaction: its caller learns each of its items' outcome. */
interface PendingDelivery<T, R> {
  items: T[];
  resolve: (outcomes: R[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: deliveries that arrive while earlier ones are being written are written together,
 * in one transaction. A single-uplink webhook otherwise costs a transaction and a commit of its own,
 * and round trips, not SQL, bound the rate (docs/benchmarks.md). Each caller still gets its answer
 * only after the transaction holding its items has committed, so a 202 keeps meaning "stored"; a
 * shared transaction that fails is retried delivery by delivery, so that one bad delivery fails only
 * its own request.
 */
export class GroupCommit<T, R> {
  private readonly pending: PendingDelivery<T, R>[] = [];
  private writers = 0;

  /**
   * @param write writes items in one transaction; resolves with each item's outcome, in order.
   * @param maxItems items in one transaction at most, however many deliveries are waiting.
   * @param concurrency transactions in flight at once: one commits while the next is built.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxItems: number,
    private readonly concurrency: number,
  ) {}

  /** Resolves, once committed, with each item's outcome, in order. */
  submit(items: T[]): Promise<R[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (this.writers < this.concurrency) void this.drain();
    });
  }

  /** Writes waiting deliveries, as many as fit in one transaction at a time, until none wait. */
  private async drain(): Promise<void> {
    this.writers++;
    try {
      for (let first = this.pending.shift(); first !== undefined; first = this.pending.shift()) {
        const batch = [first];
        let size = first.items.length;
        for (let next = this.pending[0]; next !== undefined && size + next.items.length <= this.maxItems; next = this.pending[0]) {
          size += next.items.length;
          batch.push(next);
          this.pending.shift();
        }
        await this.writeBatch(batch);
      }
    } finally {
      this.writers--;
    }
  }

  private async writeBatch(batch: PendingDelivery<T, R>[]): Promise<void> {
    try {
      const outcomes = await this.write(batch.flatMap((d) => d.items));
      let offset = 0;
      for (const delivery of batch) {
        const end = offset + delivery.items.length;
        delivery.resolve(outcomes.slice(offset, end));
        offset = end;
      }
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) return only.reject(error);
      // Which delivery failed it is unknown: each on its own now, so that only that one fails.
      for (const delivery of batch) await this.writeBatch([delivery]);
    }
  }
}
