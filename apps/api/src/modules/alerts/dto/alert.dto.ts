import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { NewestFirstPageDto } from '../../../common/http/newest-first-page.dto';
import { ALERT_STATE_FILTERS, ALERT_STATES, type AlertState, type AlertStateFilter, type AlertWire, RULE_KINDS, type RuleKind } from '@dts/domain';
import { UnixSecondsQuery } from '../../../common/http/query-values';

/** Query of GET /user/alert: newest first, in pages. */
export class AlertQueryDto extends NewestFirstPageDto {
  @UnixSecondsQuery('Raised at or after this time (unix seconds).')
  from?: number;

  @UnixSecondsQuery('Raised at or before this time (unix seconds).')
  to?: number;

  @ApiPropertyOptional({ enum: ALERT_STATE_FILTERS, description: 'active or cleared; acknowledged or unacknowledged.' })
  @IsOptional()
  @IsIn(ALERT_STATE_FILTERS, { message: `state must be one of ${ALERT_STATE_FILTERS.join(', ')}` })
  state?: AlertStateFilter;

  @ApiPropertyOptional({ description: 'One device’s alerts (an EUI of a device the account can see).' })
  @IsOptional()
  @IsString()
  eui?: string;
}

class AlertRuleRef {
  @ApiProperty({ type: Number, nullable: true, description: 'null once the rule is deleted.' }) uid!: number | null;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: RULE_KINDS }) kind!: RuleKind;
}

export class AlertResponse implements AlertWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ type: AlertRuleRef }) rule!: { uid: number | null; name: string; kind: RuleKind };
  @ApiProperty() devEUI!: string;
  @ApiProperty({ enum: ALERT_STATES }) state!: AlertState;
  @ApiProperty() acknowledged!: boolean;
  @ApiProperty({ example: 'Park patrol bike left fence Vondelpark' }) message!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What was observed; `cleared_by` what ended it.' }) details!: Record<string, unknown>;
  @ApiProperty() raised_unix!: number;
  @ApiProperty({ type: Number, nullable: true }) cleared_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true }) acknowledged_unix!: number | null;
}
