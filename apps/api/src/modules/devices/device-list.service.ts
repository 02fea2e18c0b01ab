import { Inject, Injectable } from '@nestjs/common';
import type { DeviceListMetaWire, DeviceMetaWire, DeviceSortKey } from '@dts/domain';
import { DeviceListRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiResult } from '../../common/http/api-result';
import { ApiException } from '../../common/http/api.exception';
import { DeviceMetaService } from './device-meta.service';
import { toDeviceMetaWire } from './device.mapper';
import type { DeviceListQueryDto } from './dto/device-list-query.dto';

type CursorValue = string | number | null;

/** A cursor names its sort, so a cursor of another ordering is refused rather than misread. */
function encodeCursor(sort: string, value: CursorValue, eui: string): string {
  return Buffer.from(JSON.stringify([sort, value, eui])).toString('base64url');
}

function decodeCursor(cursor: string, sort: string): { value: CursorValue; eui: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[2] !== 'string' ||
    !/^[0-9A-F]{16}$/.test(parsed[2]) ||
    !(parsed[1] === null || typeof parsed[1] === 'string' || (typeof parsed[1] === 'number' && Number.isFinite(parsed[1]))) ||
    (typeof parsed[1] === 'string' && parsed[1].length > 300)
  ) {
    throw ApiException.validation('cursor', 'cursor must be a next_cursor this route returned');
  }
  if (parsed[0] !== sort) throw ApiException.validation('cursor', `the cursor belongs to sort=${String(parsed[0])}, not ${sort}`);
  if (/^-?last_seen$/.test(sort) && typeof parsed[1] === 'string' && Number.isNaN(Date.parse(parsed[1])))
    throw ApiException.validation('cursor', 'cursor must be a next_cursor this route returned');
  return { value: parsed[1] as CursorValue, eui: parsed[2] };
}

/** GET /user/device/meta/all with the members of a user interface's list: filters, sort, pages. */
@Injectable()
export class DeviceListService {
  constructor(
    private readonly list: DeviceListRepository,
    private readonly meta: DeviceMetaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async all(principal: AuthPrincipal, query: DeviceListQueryDto): Promise<DeviceMetaWire[] | ApiResult<DeviceMetaWire[]>> {
    // Without any member the route answers exactly as the spec's route: every device, meta [].
    if (Object.values(query).every((v) => v === undefined)) return this.meta.all(principal);
    const sort = query.sort ?? 'eui';
    const descending = sort.startsWith('-');
    const page = await this.list.page(principal.accountId, {
      q: query.q?.trim() ? query.q.trim() : null,
      folder: query.folder ?? null,
      typeRef: query.type_ref ?? null,
      online: query.online ?? null,
      onlineSeconds: this.config.deviceOnlineSeconds,
      sort: (descending ? sort.slice(1) : sort) as DeviceSortKey,
      descending,
      limit: query.limit ?? null,
      after: query.cursor === undefined ? null : decodeCursor(query.cursor, sort),
    });
    const meta: DeviceListMetaWire = {
      total: page.total,
      next_cursor: page.next ? encodeCursor(sort, page.next.value, page.next.eui) : null,
      online_threshold_s: this.config.deviceOnlineSeconds,
    };
    return new ApiResult(
      page.rows.map((row) => toDeviceMetaWire(row, this.config.timeseries.uplinkRetentionDays)),
      { meta: { ...meta } },
    );
  }
}
