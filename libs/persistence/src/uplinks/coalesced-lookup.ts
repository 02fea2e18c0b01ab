interface WaitingLookup<K, V> {
  keys: K[];
  resolve: (found: Map<K, V>) => void;
  reject: (error: unknown) => void;
}

/**
 * Look-ups asked for while one is running are answered by the next query together: one round trip
 * for every caller waiting, as group commit does for writes; an idle service runs each at once.
 */
export class CoalescedLookup<K, V> {
  private readonly waiting: WaitingLookup<K, V>[] = [];
  private running = false;

  constructor(private readonly query: (keys: K[]) => Promise<Map<K, V>>) {}

  /** The values found for these keys (among others asked for at the same time). */
  find(keys: K[]): Promise<Map<K, V>> {
    if (keys.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve, reject) => {
      this.waiting.push({ keys, resolve, reject });
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const waiting = this.waiting.splice(0);
        try {
          const found = await this.query([...new Set(waiting.flatMap((w) => w.keys))]);
          for (const w of waiting) w.resolve(found);
        } catch (error) {
          for (const w of waiting) w.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
