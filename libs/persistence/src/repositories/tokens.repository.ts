import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../entities';

export interface NewToken {
  accountId: number;
  digest: Buffer;
  valueEncrypted: Buffer;
  type: 'app' | 'master';
  name: string | null;
  until: Date | null;
}

export type CreateTokenResult = { ok: true; token: ApiTokenEntity } | { ok: false; reason: 'limit' };

/** A token with the account it belongs to, as the authenticator reads it. */
export interface TokenCredential {
  tokenUid: number;
  tokenType: 'app' | 'master';
  tokenEnabled: number;
  tokenUntil: Date | null;
  accountId: number;
  username: string;
  groupid: number;
  accountActive: number;
}

@Injectable()
export class TokensRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Inserts the token unless the account already holds `limit` tokens. The account row is locked
   * so that concurrent creations cannot overshoot the limit together.
   */
  async createWithinLimit(input: NewToken, limit: number): Promise<CreateTokenResult> {
    return this.ds.transaction(async (m) => {
      await m.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [input.accountId]);
      const [{ n }] = await m.query('SELECT count(*)::int AS n FROM api_tokens WHERE account_id = $1', [input.accountId]);
      if (n >= limit) return { ok: false as const, reason: 'limit' as const };
      const repo = m.getRepository(ApiTokenEntity);
      const token = await repo.save(repo.create({ ...input, enabled: 1 }));
      return { ok: true as const, token };
    });
  }

  /** Enabled tokens that have not expired, oldest first. */
  listActive(accountId: number): Promise<ApiTokenEntity[]> {
    return this.ds
      .getRepository(ApiTokenEntity)
      .createQueryBuilder('t')
      .where('t.account_id = :accountId AND t.enabled = 1 AND (t.until IS NULL OR t.until > now())', { accountId })
      .orderBy('t.uid', 'ASC')
      .getMany();
  }

  /** The token with this digest (unique index) and its account: runs on every token request. */
  /**
   * What authenticating a request with a token needs, in one round trip without entity hydration:
   * it runs on every token-authenticated request (docs/benchmarks.md, figure 4).
   */
  async findCredential(digest: Buffer): Promise<TokenCredential | null> {
    const rows: TokenCredential[] = await this.ds.query(
      `SELECT t.uid AS "tokenUid", t.type AS "tokenType", t.enabled AS "tokenEnabled", t.until AS "tokenUntil",
              a.id AS "accountId", a.username, a.groupid, a.active AS "accountActive"
       FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.digest = $1`,
      [digest],
    );
    return rows[0] ?? null;
  }

  /** The type of the account's token with this uid, or null when the account holds no such token. */
  async typeOf(accountId: number, uid: number): Promise<'app' | 'master' | null> {
    const rows: { type: 'app' | 'master' }[] = await this.ds.query('SELECT type FROM api_tokens WHERE account_id = $1 AND uid = $2', [accountId, uid]);
    return rows[0]?.type ?? null;
  }

  /** Deletes the account's token (with `type`, only a token of that type); false when none was deleted. */
  async delete(accountId: number, uid: number, type?: 'app' | 'master'): Promise<boolean> {
    const result = await this.ds.getRepository(ApiTokenEntity).delete({ accountId, uid, ...(type ? { type } : {}) });
    return (result.affected ?? 0) > 0;
  }
}
