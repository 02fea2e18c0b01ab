import { Inject, Injectable } from '@nestjs/common';
import type { DeviceListMetaWire, DeviceMetaWire, DeviceSortKey } from '@dts/domain';
import { DeviceListRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiResult } from '../../common/http/api-result';
import { ApiException } from '../../common/http/api.exception';
import { badCursor, cursorValues, encodeCursor } from '../../common/http/page-cursor';
import { DeviceMetaService } from './device-meta.service';
import { toDeviceMetaWire } from './device.mapper';
import type { DeviceListQueryDto } from './dto/device-list-query.dto';

type CursorValue = string | number | null;

/** A cursor names its sort, so a cursor of another ordering is refused rather than misread. */
function decodeCursor(cursor: string, sort: string): { value: CursorValue; eui: string } {
  const [cursorSort, value, eui] = cursorValues(cursor, 3);
  if (
    typeof eui !== 'string' ||
    !/^[0-9A-F]{16}$/.test(eui) ||
    !(value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) ||
    (typeof value === 'string' && value.length > 300)
  ) {
    throw badCursor();
  }
  if (cursorSort !== sort) throw ApiException.validation('cursor', `the cursor belongs to sort=${String(cursorSort)}, not ${sort}`);
  if (/^-?last_seen$/.test(sort) && typeof value === 'string' && Number.isNaN(Date.parse(value))) throw badCursor();
  return { value, eui };
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
      next_cursor: page.next ? encodeCursor([sort, page.next.value, page.next.eui]) : null,
      online_threshold_s: this.config.deviceOnlineSeconds,
    };
    return new ApiResult(
      page.rows.map((row) => toDeviceMetaWire(row, this.config.timeseries.uplinkRetentionDays)),
      { meta: { ...meta } },
    );
  }
}
