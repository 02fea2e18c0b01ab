import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  registerDecorator,
} from 'class-validator';
import {
  DEFAULT_TOPIC_TEMPLATE,
  EVENT_TYPES,
  type EventType,
  INTEGRATION_KINDS,
  INTEGRATION_NAME_MAX_LENGTH,
  INTEGRATION_URL_MAX_LENGTH,
  type IntegrationKind,
  topicTemplateProblem,
} from '@dts/domain';
import { DeviceFilterDto, DevicesMember } from './device-filter.dto';

function IsTopicTemplate() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTopicTemplate',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => value === null || (typeof value === 'string' && topicTemplateProblem(value) === null),
        defaultMessage: (args) => `topic ${typeof args?.value === 'string' ? topicTemplateProblem(args.value) : 'must be a string'}`,
      },
    });
}

/** The members an account may change (PATCH): everything but the kind. */
export class IntegrationChangesDto {
  @ApiProperty({ maxLength: INTEGRATION_NAME_MAX_LENGTH, example: 'Our server' })
  @IsString()
  @MinLength(1)
  @MaxLength(INTEGRATION_NAME_MAX_LENGTH)
  name!: string;

  @ApiProperty({
    maxLength: INTEGRATION_URL_MAX_LENGTH,
    example: 'https://example.org/hooks/telemetry',
    description:
      'webhook: the http(s) URL to POST to; mqtt: the broker, `mqtt://host[:1883]` or `mqtts://host[:8883]`. Stored as it is called (the WHATWG-parsed URL); control characters and `\\` are refused, and so are loopback, link-local and private addresses unless OUTBOUND_ALLOW_PRIVATE, and broker ports of other well-known services (22, 25, 53, 5432, 6379…) unless MQTT_ALLOWED_PORTS.',
  })
  @IsString()
  @MaxLength(INTEGRATION_URL_MAX_LENGTH)
  url!: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true, example: ['uplink', 'alert'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true, message: `each value in events must be one of ${EVENT_TYPES.join(', ')}` })
  events!: EventType[];

  @DevicesMember()
  devices?: DeviceFilterDto | null;

  @ApiPropertyOptional({ default: true, description: 'false holds it (no events are queued for it); true also re-enables one the service disabled.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, default: DEFAULT_TOPIC_TEMPLATE, description: 'mqtt: topic template with {devEUI}, {event}, {account}.' })
  @IsOptional()
  @IsTopicTemplate()
  topic?: string | null;

  @ApiPropertyOptional({ enum: [0, 1], default: 1, description: 'mqtt: QoS of the messages.' })
  @IsOptional()
  @IsIn([0, 1], { message: 'qos must be 0 or 1' })
  qos?: 0 | 1 | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 256, description: 'mqtt: user name at the broker.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  username?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1024, description: 'mqtt: password at the broker. Kept encrypted; never shown again.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password?: string | null;
}

export class CreateIntegrationDto extends IntegrationChangesDto {
  @ApiProperty({ enum: INTEGRATION_KINDS })
  @IsIn(INTEGRATION_KINDS, { message: `kind must be one of ${INTEGRATION_KINDS.join(', ')}` })
  kind!: IntegrationKind;
}

export class UpdateIntegrationDto extends PartialType(IntegrationChangesDto) {}
