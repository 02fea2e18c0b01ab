import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KeyRight, OrgRole } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity';
import { EntityRows } from '../sql/entity-rows';
import { type Statement, statement, Statements } from '../sql/statements';

export interface NewToken {
  accountId: number;
  digest: Buffer;
  valueEncrypted: Buffer;
  type: 'app' | 'master';
  name: string | null;
  until: Date | null;
  /** The person who made an organisation's key; null: the account's own. */
  createdBy: number | null;
  /** What the key may do; null: all its type allows. */
  rights: KeyRight[] | null;
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
  /**
   * For an organisation's key: the person who made it, whether their account is active, and their
   * role in the organisation now (null once they left: the key no longer authenticates). For an
   * account's own key: null, 1 and 'owner'.
   */
  createdBy: number | null;
  creatorActive: number;
  role: OrgRole | null;
  /** The key's account is an organisation. */
  organisation: boolean;
  rights: KeyRight[] | null;
}

/** What authenticating a request with a token needs, in one round trip without entity hydration. */
const CREDENTIAL = statement(
  'tokens_credential',
  `SELECT t.uid AS "tokenUid", t.type AS "tokenType", t.enabled AS "tokenEnabled", t.until AS "tokenUntil",
          a.id AS "accountId", a.username, a.groupid, a.active AS "accountActive", t.created_by AS "createdBy",
          coalesce(c.active, 1) AS "creatorActive", CASE WHEN t.created_by IS NULL THEN 'owner' ELSE m.role END AS role,
          a.kind = 'organisation' AS organisation, t.rights
   FROM api_tokens t JOIN accounts a ON a.id = t.account_id
   LEFT JOIN accounts c ON c.id = t.created_by
   LEFT JOIN organisation_members m ON m.organisation_id = t.account_id AND m.account_id = t.created_by
   WHERE t.digest = $1`,
);

@Injectable()
export class TokensRepository {
  private readonly rows: EntityRows<ApiTokenEntity>;
  /** The account's usable tokens: `GET /user/token`. */
  private readonly active: Statement;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly statements: Statements,
  ) {
    this.rows = new EntityRows(ds, ApiTokenEntity);
    this.active = statement(
      'tokens_active',
      `SELECT ${this.rows.columns('t')} FROM api_tokens t WHERE t.account_id = $1 AND t.enabled = 1 AND (t.until IS NULL OR t.until > now()) ORDER BY t.uid`,
    );
  }

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
  async listActive(accountId: number): Promise<ApiTokenEntity[]> {
    const rows = await this.statements.rows<Record<string, unknown>>(this.active, [accountId]);
    return rows.map((row) => this.rows.hydrate(row));
  }

  /**
   * The token with this digest (unique index) and its account, as a prepared statement: it runs
   * for every token-authenticated request the credential cache does not answer (docs/benchmarks.md,
   * figure 4).
   */
  async findCredential(digest: Buffer): Promise<TokenCredential | null> {
    const rows = await this.statements.rows<TokenCredential>(CREDENTIAL, [digest]);
    return rows[0] ?? null;
  }

  /** Whether the token still authenticates (enabled, not expired, its account active): open streams re-check it. */
  async isLive(uid: number): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `SELECT 1 FROM api_tokens t JOIN accounts a ON a.id = t.account_id
       WHERE t.uid = $1 AND t.enabled = 1 AND (t.until IS NULL OR t.until > now()) AND a.active = 1
         AND (t.created_by IS NULL OR EXISTS (SELECT 1 FROM organisation_members m JOIN accounts c ON c.id = m.account_id
              WHERE m.organisation_id = t.account_id AND m.account_id = t.created_by AND c.active = 1))`,
      [uid],
    );
    return rows.length > 0;
  }

  /** The type of the account's token with this uid, or null when the account holds no such token. */
  async typeOf(accountId: number, uid: number): Promise<'app' | 'master' | null> {
    const rows: { type: 'app' | 'master' }[] = await this.ds.query('SELECT type FROM api_tokens WHERE account_id = $1 AND uid = $2', [accountId, uid]);
    return rows[0]?.type ?? null;
  }

  /** Deletes every token of the account (a password reset ends them all). */
  async deleteAllForAccount(accountId: number, manager?: EntityManager): Promise<void> {
    await (manager ?? this.ds.manager).query('DELETE FROM api_tokens WHERE account_id = $1', [accountId]);
  }

  /** Deletes the account's token (with `type`, only a token of that type); false when none was deleted. */
  async delete(accountId: number, uid: number, type?: 'app' | 'master'): Promise<boolean> {
    const result = await this.ds.getRepository(ApiTokenEntity).delete({ accountId, uid, ...(type ? { type } : {}) });
    return (result.affected ?? 0) > 0;
  }
}
