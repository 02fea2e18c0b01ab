import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  BATTERY_MEASURES,
  type BatteryMeasure,
  type DeviceFilterWire,
  FENCE_TRIGGERS,
  type FenceTrigger,
  OFFLINE_MINUTES_MAX,
  RULE_KINDS,
  RULE_MEMBER_PATTERN,
  RULE_NAME_MAX_LENGTH,
  type RuleKind,
  type RuleWire,
  type DeletedWire,
} from '@dts/domain';
import { DeviceFilterDto, DeviceFilterResponse, DevicesMember } from '../../integrations/dto';
import { INT4_MAX } from '../../../common/http/query-values';

const finite = { allowNaN: false, allowInfinity: false };

/** What an account may change (PATCH): everything but the kind. Which members a kind takes: docs/api.md §19. */
export class RuleChangesDto {
  @ApiProperty({ maxLength: RULE_NAME_MAX_LENGTH, example: 'Bike leaves the park' })
  @IsString()
  @MinLength(1)
  @MaxLength(RULE_NAME_MAX_LENGTH)
  name!: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @DevicesMember()
  devices?: DeviceFilterDto | null;

  @ApiPropertyOptional({ default: false, description: 'Also mail each alert raised and cleared to the account’s address.' })
  @IsOptional()
  @IsBoolean()
  email?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'fence: the uid of one of the account’s fences.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  fence?: number | null;

  @ApiPropertyOptional({ enum: FENCE_TRIGGERS, nullable: true, description: 'fence: alert when the device enters, or when it leaves.' })
  @IsOptional()
  @IsIn(FENCE_TRIGGERS, { message: 'on must be enter or leave' })
  on?: FenceTrigger | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: OFFLINE_MINUTES_MAX, description: 'offline: minutes without an uplink.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(OFFLINE_MINUTES_MAX)
  minutes?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'temperature',
    description:
      'threshold: a measurement of the table row (temperature, humidity, battery_voltage, battery_percent, LAT, LON, ALT, RSSI, SNR, SF) or a number in payload_decoded.',
  })
  @IsOptional()
  @IsString()
  @Matches(RULE_MEMBER_PATTERN, { message: 'member must be a measurement name (letters, digits, _)' })
  member?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'threshold: alert above this value.' })
  @IsOptional()
  @IsNumber(finite)
  above?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'threshold: alert below this value; battery: alert below this percentage or voltage.' })
  @IsOptional()
  @IsNumber(finite)
  below?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    default: 0,
    description: 'threshold, battery: how far back past the limit a value must come to clear.',
  })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  hysteresis?: number | null;

  @ApiPropertyOptional({ enum: BATTERY_MEASURES, nullable: true, description: 'battery: percent or voltage.' })
  @IsOptional()
  @IsIn(BATTERY_MEASURES, { message: 'measure must be percent or voltage' })
  measure?: BatteryMeasure | null;
}

export class CreateRuleDto extends RuleChangesDto {
  @ApiProperty({ enum: RULE_KINDS })
  @IsIn(RULE_KINDS, { message: `kind must be one of ${RULE_KINDS.join(', ')}` })
  kind!: RuleKind;
}

export class UpdateRuleDto extends PartialType(RuleChangesDto) {}

export class RuleResponse implements RuleWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: RULE_KINDS }) kind!: RuleKind;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: DeviceFilterResponse, nullable: true }) devices!: DeviceFilterWire | null;
  @ApiProperty() email!: boolean;
  @ApiProperty({ type: Number, nullable: true }) fence!: number | null;
  @ApiProperty({ enum: FENCE_TRIGGERS, nullable: true }) on!: FenceTrigger | null;
  @ApiProperty({ type: Number, nullable: true }) minutes!: number | null;
  @ApiProperty({ type: String, nullable: true }) member!: string | null;
  @ApiProperty({ type: Number, nullable: true }) above!: number | null;
  @ApiProperty({ type: Number, nullable: true }) below!: number | null;
  @ApiProperty({ type: Number, nullable: true }) hysteresis!: number | null;
  @ApiProperty({ enum: BATTERY_MEASURES, nullable: true }) measure!: BatteryMeasure | null;
  @ApiProperty() created_unix!: number;
  @ApiProperty() updated_unix!: number;
}

export class RuleDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
