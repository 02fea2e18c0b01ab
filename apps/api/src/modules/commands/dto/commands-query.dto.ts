import { COMMAND_STATUSES } from '@dts/domain';
import { NewestFirstPageDto } from '../../../common/http/newest-first-page.dto';
import { CommaListQuery } from '../../../common/http/query-values';

/** GET /user/device/command/{eui}: newest first, in keyset pages, optionally of some statuses only. */
export class CommandsQueryDto extends NewestFirstPageDto {
  @CommaListQuery(COMMAND_STATUSES, {
    description: `Comma-separated statuses of ${COMMAND_STATUSES.join(', ')}; \`Created,Scheduled\` is what has not left.`,
    example: 'Created,Scheduled',
  })
  status?: string;
}
