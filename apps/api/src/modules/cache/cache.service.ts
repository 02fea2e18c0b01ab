import { Injectable } from '@nestjs/common';
import { type CacheDeviceEntryWire, type CacheEntryListMetaWire, type Eui, normalizeEui, toUnix } from '@dts/domain';
import { DataCacheRepository, DevicesRepository } from '@dts/persistence';
import { ApiResult } from '../../common/http/api-result';
import { ApiException } from '../../common/http/api.exception';
import { DataCacheService } from '../uplinks/data-cache.service';
import type {
  CacheEntriesQueryDto,
  CacheEntryResponse,
  CacheInvalidatedAllResponse,
  CacheInvalidatedResponse,
  CacheTotalsResponse,
} from './dto/cache.responses';

@Injectable()
export class CacheService {
  constructor(
    private readonly cache: DataCacheRepository,
    private readonly devices: DevicesRepository,
    private readonly dataCache: DataCacheService,
  ) {}

  totals(): Promise<CacheTotalsResponse> {
    return this.cache.totals();
  }

  /** GET /cache/entries: every live device's entry, by EUI, in pages. */
  async entries(query: CacheEntriesQueryDto): Promise<ApiResult<CacheDeviceEntryWire[]>> {
    let after: string | null = null;
    if (query.cursor !== undefined) {
      after = normalizeEui(query.cursor);
      if (!after) throw ApiException.validation('cursor', 'cursor must be a next_cursor this route returned');
    }
    const limit = query.limit ?? 100;
    const stale = query.stale ?? null;
    const [rows, counts] = await Promise.all([this.cache.entries(stale, limit + 1, after), this.cache.entryCounts(stale)]);
    const page = rows.slice(0, limit);
    const meta: CacheEntryListMetaWire = {
      next_cursor: rows.length > limit ? (page.at(-1)?.eui ?? null) : null,
      total: counts.fresh + counts.stale + counts.never_built,
      ...counts,
    };
    return new ApiResult(
      page.map((r) => ({
        devEUI: r.eui,
        label: r.label,
        owner: r.owner,
        version: r.version,
        rows: r.rows,
        bytes: Number(r.bytes),
        built_unix: r.built_at ? toUnix(r.built_at) : null,
        stale: r.built_version !== r.version,
      })),
      { meta: { ...meta } },
    );
  }

  async entry(eui: Eui): Promise<CacheEntryResponse> {
    const device = await this.device(eui);
    const s = await this.cache.status(device.uid);
    return { devEUI: device.eui, version: s.version, rows: s.rows, built_unix: s.builtAt ? toUnix(s.builtAt) : null, stale: s.builtVersion !== s.version };
  }

  async invalidate(eui: Eui): Promise<CacheInvalidatedResponse> {
    const device = await this.device(eui);
    const version = await this.cache.invalidate(device.uid);
    await this.dataCache.requestRebuild(device.uid, version);
    return { devEUI: device.eui, version };
  }

  async invalidateAll(): Promise<CacheInvalidatedAllResponse> {
    const entries = await this.cache.invalidateAll();
    for (const e of entries) await this.dataCache.requestRebuild(e.deviceUid, e.version);
    return { devices: entries.length };
  }

  private async device(eui: Eui) {
    const device = await this.devices.byEui(eui);
    if (!device) throw ApiException.notFound('device', 'eui');
    return device;
  }
}
