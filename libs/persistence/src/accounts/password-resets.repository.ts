import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { returningRows } from '../sql/sql-results';

@Injectable()
export class PasswordResetsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Issues the account's reset token, replacing any it had: one live reset token per account, so a
   * hundred requests leave one token that works, not a hundred. The account row is locked so that
   * two concurrent requests cannot both leave theirs.
   */
  async replace(digest: Buffer, accountId: number, expiresAt: Date): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      await m.query('DELETE FROM password_resets WHERE account_id = $1 AND used_at IS NULL', [accountId]);
      await m.query('INSERT INTO password_resets (digest, account_id, expires_at) VALUES ($1, $2, $3)', [digest, accountId, expiresAt]);
    });
  }

  /**
   * Marks the token used and returns its account, in one statement so that two concurrent uses
   * cannot both succeed. Null when unknown, used or expired.
   */
  async consume(digest: Buffer, manager: EntityManager): Promise<number | null> {
    const rows = await returningRows<{ account_id: number }>(
      manager,
      'UPDATE password_resets SET used_at = now() WHERE digest = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id',
      [digest],
    );
    return rows[0]?.account_id ?? null;
  }
}
