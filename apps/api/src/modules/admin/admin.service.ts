import { Inject, Injectable } from '@nestjs/common';
import type { AdminAccountDeletedWire, AdminAccountListMetaWire, AdminAccountWire, AdminInfoWire, AdminPasswordResetWire, MemberWire } from '@dts/domain';
import { AccountsRepository, type AdminAccountRow, DataCacheRepository, OrganisationsRepository, SystemStatsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, readBuildInfo, usesRedis } from '@dts/platform';
import { ApiResult } from '../../common/http/api-result';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { badCursor, cursorValues, encodeCursor } from '../../common/http/page-cursor';
import { AuthService } from '../auth/auth.service';
import { toAdminAccountWire } from './admin-account.mapper';
import { toMemberWire } from '../organisations/organisation.mapper';
import { toAdminInfoWire } from './admin-info.mapper';
import type { AdminAccountDeleteQueryDto } from '../auth/dto/account-deletion.dto';
import type { AdminAccountsQueryDto, AdminAccountUpdateDto } from './dto/admin-accounts.dto';

/** An account list cursor: the last row's username key and id. */
function decodeCursor(cursor: string): { key: string; id: number } {
  const [key, id] = cursorValues(cursor, 2);
  if (typeof key !== 'string' || key.length > 64 || !Number.isInteger(id) || (id as number) < 1) throw badCursor();
  return { key, id: id as number };
}

@Injectable()
export class AdminService {
  private readonly version = readBuildInfo().version;

  constructor(
    private readonly stats: SystemStatsRepository,
    private readonly cache: DataCacheRepository,
    private readonly queues: JobQueue,
    private readonly accountRows: AccountsRepository,
    private readonly auth: AuthService,
    private readonly organisations: OrganisationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async info(): Promise<AdminInfoWire> {
    const [counts, database, queues, cache] = await Promise.all([this.stats.counts(), this.stats.database(), this.queues.depths(), this.cache.totals()]);
    return toAdminInfoWire({
      version: this.version,
      uptimeSeconds: process.uptime(),
      counts,
      queues,
      // The embedded database is the one run when DATABASE_URL is unset (a second instance joins it).
      embedded: this.config.database.url === null,
      database,
      pool: this.stats.pool(),
      redisCache: usesRedis(this.config),
      cache,
    });
  }

  /** GET /admin/accounts: by username, with the devices each owns. */
  async accounts(query: AdminAccountsQueryDto): Promise<ApiResult<AdminAccountWire[]>> {
    const limit = query.limit ?? 100;
    const q = query.q?.trim() ? query.q.trim() : null;
    const { rows, total } = await this.accountRows.adminPage(q, limit + 1, query.cursor === undefined ? null : decodeCursor(query.cursor), query.kind ?? null);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const meta: AdminAccountListMetaWire = { total, next_cursor: rows.length > limit && last ? encodeCursor([last.username_key, last.id]) : null };
    return new ApiResult(
      page.map((row) => this.wire(row)),
      { meta: { ...meta } },
    );
  }

  private wire(row: AdminAccountRow): AdminAccountWire {
    return toAdminAccountWire(row, this.config.timeseries.uplinkRetentionDays);
  }

  /** PATCH /admin/accounts/{id}: the expiration, the device limit, the retention and/or whether the account is active. */
  async updateAccount(caller: AuthPrincipal, id: number, dto: AdminAccountUpdateDto): Promise<AdminAccountWire> {
    if (dto.expiration === undefined && dto.max_devices === undefined && dto.uplink_retention_days === undefined && dto.active === undefined)
      throw ApiException.validation('max_devices', 'give at least one of expiration, max_devices, uplink_retention_days and active');
    // An administrator who locks themselves out needs another one to get back in.
    if (dto.active === 0 && id === caller.accountId) throw ApiException.validation('active', 'an administrator cannot disable their own account');
    // The pattern lets 2027-02-31 through; PostgreSQL would refuse it with a 500.
    const day = dto.expiration === undefined ? null : new Date(`${dto.expiration}T00:00:00Z`);
    if (day && (!Number.isFinite(day.getTime()) || day.toISOString().slice(0, 10) !== dto.expiration))
      throw ApiException.validation('expiration', 'expiration must be a date that exists');
    const change = { expiresOn: dto.expiration, maxDevices: dto.max_devices, uplinkRetentionDays: dto.uplink_retention_days, active: dto.active };
    if (!(await this.accountRows.adminUpdate(id, change))) throw ApiException.notFound('account', 'id');
    // Sign-in follows the row; what was already signed in (sessions, tokens checked and remembered)
    // follows now, on every instance.
    if (dto.active !== undefined) await this.auth.activeChanged(id, dto.active);
    const row = await this.accountRows.adminOne(id);
    if (!row) throw ApiException.notFound('account', 'id');
    return this.wire(row);
  }

  /** GET /admin/accounts/{id}/members: an organisation's members and roles (docs/api.md §20). */
  async members(id: number): Promise<MemberWire[]> {
    const account = await this.accountRows.findById(id);
    if (!account || account.kind !== 'organisation') throw ApiException.notFound('organisation', 'id');
    return (await this.organisations.members(id)).map(toMemberWire);
  }

  /** POST /admin/accounts/{id}/password-reset: the account's address gets a reset link, as if it had asked. */
  async passwordReset(id: number): Promise<AdminPasswordResetWire> {
    const account = await this.accountRows.findById(id);
    if (!account) throw ApiException.notFound('account', 'id');
    if (account.kind === 'organisation') throw ApiException.validation('id', 'an organisation has no password: its members sign in with their own');
    await this.auth.requestReset(account.email);
    return { id, email: account.email };
  }

  /** DELETE /admin/accounts/{id}: the account and what it owns; its devices deleted or handed over, as asked. */
  async deleteAccount(caller: AuthPrincipal, id: number, query: AdminAccountDeleteQueryDto): Promise<AdminAccountDeletedWire> {
    if (id === caller.accountId) throw ApiException.validation('id', 'an administrator deletes their own account with DELETE /auth/register');
    if (query.devices !== 'hand_over' && query.to !== undefined) throw ApiException.validation('to', 'to goes with devices=hand_over');
    const account = await this.accountRows.findById(id);
    if (!account) throw ApiException.notFound('account', 'id');
    let receiver: number | null = null;
    if (query.devices === 'hand_over') {
      const to = await this.accountRows.findByUsername(query.to!);
      if (!to) throw ApiException.notFound('account', 'to');
      if (to.id === id) throw ApiException.validation('to', 'the devices must go to another account than the one deleted');
      receiver = to.id;
    }
    const outcome = await this.auth.removeAccount(id, receiver === null ? null : { accountId: receiver, field: 'to' });
    return { id, deleted: true, devices_deleted: outcome.deleted, devices_handed_over: outcome.handedOver, to: receiver };
  }
}
