import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from '../sql/sql-results';

/** Which account a provider's subject signs in to (migration 1795860000000). */
@Injectable()
export class OidcIdentitiesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The linked account's id, noting the use; null when the subject has none yet. */
  async accountOf(provider: string, subject: string): Promise<number | null> {
    const rows = await returningRows<{ account_id: number }>(
      this.ds,
      'UPDATE oidc_identities SET last_used_at = now() WHERE provider = $1 AND subject = $2 RETURNING account_id',
      [provider, subject],
    );
    return rows[0]?.account_id ?? null;
  }

  /** Links the subject to the account (a link made meanwhile by a concurrent sign-in stands). */
  async link(provider: string, subject: string, accountId: number): Promise<number> {
    await this.ds.query('INSERT INTO oidc_identities (provider, subject, account_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      provider,
      subject,
      accountId,
    ]);
    return (await this.accountOf(provider, subject))!;
  }
}
