import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { SeriesQueryDto } from './dto/series-query.dto';
import { SeriesResponse } from './dto/series.response';
import { SeriesService } from './series.service';

@ApiTags('data')
@Controller('user/device/series')
export class SeriesController {
  constructor(private readonly series: SeriesService) {}

  @Get(':eui')
  @ApiOperation({
    summary: 'Measurement members aggregated into time buckets (min, avg, max, count), computed in the database',
    description:
      'Buckets by reception time, as `from`/`to` of the history reads; at most 2,000 buckets. A member is a data type alias as in `filter` of GET /user/device/data/{eui}. ' +
      'Buckets of 1 h and more read completed hours from an hourly rollup filled by the first such read and dropped by any change to their uplinks; the answer is the uplinks’ (docs/api.md §5).',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(SeriesResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'QUERY_TIMEOUT')
  get(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Query() query: SeriesQueryDto) {
    return this.series.get(me, eui, query);
  }
}
