import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CacheService } from './cache.service';
import {
  CacheDeviceEntryResponse,
  CacheEntriesQueryDto,
  CacheEntryResponse,
  CacheInvalidatedAllResponse,
  CacheInvalidatedResponse,
  CacheTotalsResponse,
} from './dto/cache.responses';

/** The per-device data cache, for administrators. */
@ApiTags('cache')
@Controller('cache')
@AdminOnly()
export class CacheController {
  constructor(private readonly cache: CacheService) {}

  @Get('status')
  @ApiOperation({ summary: 'Cache totals' })
  @ApiEnvelope(CacheTotalsResponse)
  @ApiErrors('AUTH_REQUIRED', 'ADMIN_ONLY')
  totals() {
    return this.cache.totals();
  }

  @Get('entries')
  @ApiOperation({
    summary: 'Every live device’s cache entry, by EUI, in pages',
    description:
      'At most `limit` (default 100); pass `meta.next_cursor` as `cursor` (with the same `stale`) for the next page. A device never built shows version 0 and `stale: true`, as GET /cache/status/{eui} does.',
  })
  @ApiEnvelope([CacheDeviceEntryResponse], {
    meta: {
      type: 'object',
      description: 'Counts of every entry the same `stale` lists, over all pages: total = fresh + stale + never_built.',
      properties: {
        next_cursor: { type: 'string', nullable: true },
        total: { type: 'integer' },
        fresh: { type: 'integer' },
        stale: { type: 'integer' },
        never_built: { type: 'integer' },
      },
      required: ['next_cursor', 'total', 'fresh', 'stale', 'never_built'],
    },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY')
  entries(@Query() query: CacheEntriesQueryDto) {
    return this.cache.entries(query);
  }

  @Get('status/:eui')
  @ApiOperation({ summary: 'One device’s cache entry' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(CacheEntryResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  entry(@Param('eui', EuiParamPipe) eui: Eui) {
    return this.cache.entry(eui);
  }

  // Before invalidate/{eui}: "all" is not an EUI.
  @Post('invalidate/all')
  @HttpCode(202)
  @ApiOperation({ summary: 'Invalidate every entry and queue their rebuilds' })
  @ApiEnvelope(CacheInvalidatedAllResponse, { status: 202 })
  @ApiErrors('AUTH_REQUIRED', 'ADMIN_ONLY')
  invalidateAll() {
    return this.cache.invalidateAll();
  }

  @Post('invalidate/:eui')
  @HttpCode(202)
  @ApiOperation({ summary: 'Invalidate one device’s entry and queue its rebuild' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(CacheInvalidatedResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  invalidate(@Param('eui', EuiParamPipe) eui: Eui) {
    return this.cache.invalidate(eui);
  }
}
