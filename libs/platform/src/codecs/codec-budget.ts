/**
 * Codec CPU time per account per clock minute, in this process. Each instance keeps its own
 * account (an account whose deliveries a load balancer spreads over N instances gets up to N
 * budgets): the bound is on what one account can take from the other accounts of an instance.
 */
export class CodecBudget {
  private readonly used = new Map<number, { minute: number; ms: number }>();

  constructor(
    private readonly msPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds the account may still spend this minute (0 when spent). */
  remaining(accountId: number): number {
    const entry = this.used.get(accountId);
    return entry && entry.minute === this.minute() ? Math.max(0, this.msPerMinute - entry.ms) : this.msPerMinute;
  }

  charge(accountId: number, ms: number): void {
    const minute = this.minute();
    const entry = this.used.get(accountId);
    if (entry && entry.minute === minute) entry.ms += ms;
    else this.used.set(accountId, { minute, ms });
    // Accounts that decoded in an earlier minute hold nothing worth keeping.
    if (this.used.size > 10_000) for (const [id, e] of this.used) if (e.minute !== minute) this.used.delete(id);
  }

  /** Milliseconds until the next minute's budget. */
  untilNextMinuteMs(): number {
    return 60_000 - (this.now() % 60_000);
  }

  private minute(): number {
    return Math.floor(this.now() / 60_000);
  }
}
