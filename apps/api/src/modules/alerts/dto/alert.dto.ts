import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { NewestFirstPageDto } from '../../../common/http/newest-first-page.dto';
import {
  ALERT_MAIL_STATES,
  ALERT_STATE_FILTERS,
  ALERT_STATES,
  type AlertMailOutcomeWire,
  type AlertMailState,
  type AlertMailWire,
  type AlertState,
  type AlertStateFilter,
  type AlertWire,
  RULE_KINDS,
  type RuleKind,
} from '@dts/domain';
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

class AlertMailOutcomeResponse implements AlertMailOutcomeWire {
  @ApiProperty({
    enum: ALERT_MAIL_STATES,
    description: 'pending; sent; held (over the hourly limits, for the hour’s digest); digested (sent in the digest); skipped (never sent).',
  })
  state!: AlertMailState;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'the account’s e-mail address is not verified',
    description: 'Why it was held or skipped; the digest that took it.',
  })
  reason!: string | null;
}

class AlertMailResponse implements AlertMailWire {
  @ApiProperty({ type: AlertMailOutcomeResponse }) raised!: AlertMailOutcomeResponse;
  @ApiProperty({ type: AlertMailOutcomeResponse, nullable: true, description: 'null until the alert cleared.' }) cleared!: AlertMailOutcomeResponse | null;
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
  @ApiProperty({ type: AlertMailResponse, nullable: true, description: 'The alert’s mails; null when its rule did not ask for mail.' })
  mail!: AlertMailResponse | null;
}
