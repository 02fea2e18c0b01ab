import { Inject, Injectable } from '@nestjs/common';
import type { AdminAccountListMetaWire, AdminAccountWire, AdminInfoWire } from '@dts/domain';
import { AccountsRepository, type AdminAccountRow, DataCacheRepository, SystemStatsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, readBuildInfo, usesRedis } from '@dts/platform';
import { ApiResult } from '../../common/http/api-result';
import { ApiException } from '../../common/http/api.exception';
import { toAdminAccountWire } from './admin-account.mapper';
import { toAdminInfoWire } from './admin-info.mapper';
import type { AdminAccountsQueryDto, AdminAccountUpdateDto } from './dto/admin-accounts.dto';

/** An account list cursor: the last row's username key and id. */
function encodeCursor(key: string, id: number): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

function decodeCursor(cursor: string): { key: string; id: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || parsed[0].length > 64 || !Number.isInteger(parsed[1]) || parsed[1] < 1)
    throw ApiException.validation('cursor', 'cursor must be a next_cursor this route returned');
  return { key: parsed[0], id: parsed[1] as number };
}

@Injectable()
export class AdminService {
  private readonly version = readBuildInfo().version;

  constructor(
    private readonly stats: SystemStatsRepository,
    private readonly cache: DataCacheRepository,
    private readonly queues: JobQueue,
    private readonly accountRows: AccountsRepository,
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
    const { rows, total } = await this.accountRows.adminPage(q, limit + 1, query.cursor === undefined ? null : decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const meta: AdminAccountListMetaWire = { total, next_cursor: rows.length > limit && last ? encodeCursor(last.username_key, last.id) : null };
    return new ApiResult(
      page.map((row) => this.wire(row)),
      { meta: { ...meta } },
    );
  }

  private wire(row: AdminAccountRow): AdminAccountWire {
    return toAdminAccountWire(row, this.config.timeseries.uplinkRetentionDays);
  }

  /** PATCH /admin/accounts/{id}: the expiration, the device limit and/or the retention of raw uplinks. */
  async updateAccount(id: number, dto: AdminAccountUpdateDto): Promise<AdminAccountWire> {
    if (dto.expiration === undefined && dto.max_devices === undefined && dto.uplink_retention_days === undefined)
      throw ApiException.validation('max_devices', 'give at least one of expiration, max_devices and uplink_retention_days');
    // The pattern lets 2027-02-31 through; PostgreSQL would refuse it with a 500.
    const day = dto.expiration === undefined ? null : new Date(`${dto.expiration}T00:00:00Z`);
    if (day && (!Number.isFinite(day.getTime()) || day.toISOString().slice(0, 10) !== dto.expiration))
      throw ApiException.validation('expiration', 'expiration must be a date that exists');
    const change = { expiresOn: dto.expiration, maxDevices: dto.max_devices, uplinkRetentionDays: dto.uplink_retention_days };
    if (!(await this.accountRows.adminUpdate(id, change))) throw ApiException.notFound('account', 'id');
    const row = await this.accountRows.adminOne(id);
    if (!row) throw ApiException.notFound('account', 'id');
    return this.wire(row);
  }
}
