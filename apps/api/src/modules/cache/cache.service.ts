import { Injectable } from '@nestjs/common';
import { type Eui, toUnix } from '@dts/domain';
import { DataCacheRepository, DevicesRepository } from '@dts/persistence';
import { ApiException } from '../../common/http/api.exception';
import { DataCacheService } from '../uplinks/data-cache.service';
import type { CacheEntryResponse, CacheInvalidatedAllResponse, CacheInvalidatedResponse, CacheTotalsResponse } from './dto/cache.responses';

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
