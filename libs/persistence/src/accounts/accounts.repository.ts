import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountEntity } from './account.entity';
import { EntityRows } from '../sql/entity-rows';
import { returningRows } from '../sql/sql-results';
import { type Statement, statement, Statements } from '../sql/statements';

export interface NewAccount {
  username: string;
  email: string;
  fullname: string;
  passwordHash: string;
  groupid: number;
  maxDevices: number;
  /** YYYY-MM-DD */
  expiresOn: string;
  /** Whether the address counts as verified from the start (the configured administrator's). */
  emailVerified: boolean;
}

/** An account as an administrator lists it: with the devices it owns. */
export interface AdminAccountRow {
  id: number;
  username: string;
  email: string;
  fullname: string;
  groupid: number;
  active: number;
  created_at: Date;
  last_login_at: Date | null;
  expires_on: string;
  max_devices: number;
  devices: number;
  /** The account's own retention of raw uplinks (days); null: the platform default. */
  uplink_retention_days: number | null;
  kind: 'person' | 'organisation';
  /** An organisation's members; null for a person. */
  members: number | null;
}

/** An administrator's change of an account: each member given is set (retention null: the platform default). */
export interface AdminAccountChange {
  /** YYYY-MM-DD */
  expiresOn?: string;
  maxDevices?: number;
  uplinkRetentionDays?: number | null;
  /** 1 active, 0 disabled (no sign-in, no session, no token). */
  active?: 0 | 1;
}

/** The accounts' columns of an AdminAccountRow, `a` being the account. */
const ADMIN_COLUMNS = `a.id, a.username, a.email, a.fullname, a.groupid, a.active, a.created_at, a.last_login_at, to_char(a.expires_on, 'YYYY-MM-DD') AS expires_on,
  a.max_devices, (SELECT count(*)::int FROM devices d WHERE d.owner_id = a.id AND d.deleted_at IS NULL) AS devices, a.uplink_retention_days, a.kind,
  CASE WHEN a.kind = 'organisation' THEN (SELECT count(*)::int FROM organisation_members m WHERE m.organisation_id = a.id) END AS members`;

export type CreateAccountResult = { ok: true; account: AccountEntity } | { ok: false; conflict: 'username' | 'email' };

@Injectable()
export class AccountsRepository {
  private readonly rows: EntityRows<AccountEntity>;
  /** The account by id: every `GET /user`, and the plan of every call that acts in an organisation. */
  private readonly byId: Statement;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly statements: Statements,
  ) {
    this.rows = new EntityRows(ds, AccountEntity);
    this.byId = statement('account_by_id', `SELECT ${this.rows.columns('a')} FROM accounts a WHERE a.id = $1`);
  }

  private repo(manager?: EntityManager) {
    return (manager ?? this.ds.manager).getRepository(AccountEntity);
  }

  /**
   * Inserts the account unless its username or e-mail address is taken. ON CONFLICT DO NOTHING, not
   * a caught unique violation: a taken address then costs what a free one does (no error raised and
   * rolled back in the database, which on the embedded database is the slow path), so the time a
   * registration takes does not tell whether an address has an account.
   */
  async create(input: NewAccount): Promise<CreateAccountResult> {
    const { emailVerified, ...columns } = input;
    const usernameKey = input.username.toLowerCase();
    const emailKey = input.email.toLowerCase();
    const inserted = await this.repo()
      .createQueryBuilder()
      .insert()
      .values({ ...columns, usernameKey, emailKey, consent: 0, active: 1, emailVerifiedAt: emailVerified ? new Date() : null })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (inserted.raw as { id: number | string }[])[0]?.id;
    if (id !== undefined) return { ok: true, account: (await this.findById(Number(id)))! };
    // Which one is taken; the username first, as the unique index on it is checked first.
    const [taken] = (await this.ds.query(
      'SELECT username_key = $1 AS username FROM accounts WHERE username_key = $1 OR email_key = $2 ORDER BY 1 DESC LIMIT 1',
      [usernameKey, emailKey],
    )) as { username: boolean }[];
    return { ok: false, conflict: taken?.username ? 'username' : 'email' };
  }

  async findById(id: number): Promise<AccountEntity | null> {
    const [row] = await this.statements.rows<Record<string, unknown>>(this.byId, [id]);
    return row ? this.rows.hydrate(row) : null;
  }

  findByUsername(username: string): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ usernameKey: username.toLowerCase() });
  }

  /** By username or e-mail address, case-insensitively. */
  async findByLogin(login: string): Promise<AccountEntity | null> {
    const key = login.toLowerCase();
    // An organisation never signs in (docs/api.md §20).
    return this.repo().createQueryBuilder('a').where(`(a.username_key = :key OR a.email_key = :key) AND a.kind = 'person'`, { key }).getOne();
  }

  async recordLogin(id: number): Promise<void> {
    await this.ds.query('UPDATE accounts SET login_count = login_count + 1, last_login_at = now() WHERE id = $1', [id]);
  }

  async updatePassword(id: number, passwordHash: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { passwordHash });
  }

  /**
   * Sets (or, with null, withdraws) the address the account asks to change to. False when another
   * account has that address already (pending addresses reserve nothing: the first to verify wins).
   */
  async setPendingEmail(id: number, email: string | null): Promise<boolean> {
    const rows = await returningRows<{ id: number }>(
      this.ds,
      `UPDATE accounts SET email_pending = $2 WHERE id = $1
         AND ($2::text IS NULL OR NOT EXISTS (SELECT 1 FROM accounts o WHERE o.email_key = lower($2::text) AND o.id <> $1)) RETURNING id`,
      [id, email],
    );
    return rows.length > 0;
  }

  /** Deletes the account; everything it owns goes with it through ON DELETE CASCADE. */
  async delete(id: number): Promise<void> {
    await this.repo().delete({ id });
  }

  /**
   * Accounts by username (case-insensitive, id as tie-break) whose username or e-mail contains
   * `q`, in keyset pages after `after` (the last username key and id of the previous page).
   */
  async adminPage(
    q: string | null,
    limit: number,
    after: { key: string; id: number } | null,
    kind: 'person' | 'organisation' | null = null,
  ): Promise<{ rows: (AdminAccountRow & { username_key: string })[]; total: number }> {
    const pattern = q === null ? null : `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const [rows, [count]] = await Promise.all([
      this.ds.query(
        `SELECT ${ADMIN_COLUMNS}, a.username_key FROM accounts a
         WHERE ($1::text IS NULL OR a.username_key LIKE $1 OR a.email_key LIKE $1)
           AND ($2::text IS NULL OR (a.username_key, a.id) > ($2, $3::int))
           AND ($5::text IS NULL OR a.kind = $5)
         ORDER BY a.username_key, a.id LIMIT $4`,
        [pattern, after?.key ?? null, after?.id ?? null, limit, kind],
      ) as Promise<(AdminAccountRow & { username_key: string })[]>,
      this.ds.query(
        'SELECT count(*)::int AS n FROM accounts a WHERE ($1::text IS NULL OR a.username_key LIKE $1 OR a.email_key LIKE $1) AND ($2::text IS NULL OR a.kind = $2)',
        [pattern, kind],
      ) as Promise<{ n: number }[]>,
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  async adminOne(id: number): Promise<AdminAccountRow | null> {
    const rows: AdminAccountRow[] = await this.ds.query(`SELECT ${ADMIN_COLUMNS} FROM accounts a WHERE a.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** An administrator's change of the account's expiration, device limit and/or retention; false: no such account. */
  async adminUpdate(id: number, change: AdminAccountChange): Promise<boolean> {
    // The retention's null is a value to set (the platform default), so whether it was given travels apart.
    const rows = await returningRows<{ id: number }>(
      this.ds,
      `UPDATE accounts SET expires_on = coalesce($2::date, expires_on), max_devices = coalesce($3::int, max_devices),
         uplink_retention_days = CASE WHEN $4::boolean THEN $5::int ELSE uplink_retention_days END,
         active = coalesce($6::int, active)
       WHERE id = $1 RETURNING id`,
      [
        id,
        change.expiresOn ?? null,
        change.maxDevices ?? null,
        change.uplinkRetentionDays !== undefined,
        change.uplinkRetentionDays ?? null,
        change.active ?? null,
      ],
    );
    return rows.length > 0;
  }

  async count(): Promise<number> {
    return this.repo().count();
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }
}
