import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { NewestFirstPageDto } from '../../../common/http/newest-first-page.dto';
import {
  type CreatedIntegrationWire,
  DELIVERY_STATES,
  type DeliveryState,
  type DeliveryWire,
  type DeviceFilterWire,
  EVENT_TYPES,
  type EventType,
  INTEGRATION_KINDS,
  type IntegrationKind,
  type IntegrationWire,
  type DeletedWire,
  type TestSendWire,
} from '@dts/domain';

export class DeviceFilterResponse implements DeviceFilterWire {
  @ApiProperty({ type: [String], nullable: true }) euis!: string[] | null;
  @ApiProperty({ type: String, nullable: true }) folder!: string | null;
  @ApiProperty({ type: [String], nullable: true }) tags!: string[] | null;
}

export class IntegrationResponse implements IntegrationWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: INTEGRATION_KINDS }) kind!: IntegrationKind;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true }) events!: EventType[];
  @ApiProperty({ type: DeviceFilterResponse, nullable: true }) devices!: DeviceFilterWire | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why the service disabled it (continuous failures, 410 Gone).' }) disabled_reason!: string | null;
  @ApiProperty({ type: Number, nullable: true }) disabled_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Since when every attempt has failed.' }) failing_since_unix!: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ type: Number, nullable: true }) last_success_unix!: number | null;
  @ApiProperty({ description: 'Deliveries waiting or retrying.' }) pending!: number;
  @ApiProperty({ type: String, nullable: true, description: 'mqtt only.' }) topic!: string | null;
  @ApiProperty({ type: Number, enum: [0, 1], nullable: true, description: 'mqtt only.' }) qos!: 0 | 1 | null;
  @ApiProperty({ type: String, nullable: true, description: 'mqtt only.' }) username!: string | null;
  @ApiProperty({ description: 'Whether an MQTT password is stored (never shown).' }) has_password!: boolean;
  @ApiProperty() created_unix!: number;
  @ApiProperty() updated_unix!: number;
}

export class CreatedIntegrationResponse extends IntegrationResponse implements CreatedIntegrationWire {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'webhook: the Standard Webhooks signing secret. Shown in this answer only; null for mqtt.',
  })
  secret!: string | null;
}

export class IntegrationDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class DeliveryResponse implements DeliveryWire {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'evt_1042', description: 'The event’s id: the body’s `id` and the `webhook-id` header.' }) event_id!: string;
  @ApiProperty({ enum: EVENT_TYPES }) event_type!: EventType;
  @ApiProperty() devEUI!: string;
  @ApiProperty({ enum: DELIVERY_STATES }) state!: DeliveryState;
  @ApiProperty() attempts!: number;
  @ApiProperty() created_unix!: number;
  @ApiProperty({ type: Number, nullable: true }) last_attempt_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true }) next_attempt_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true }) delivered_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last attempt (webhooks).' }) response_status!: number | null;
  @ApiProperty({ type: Number, nullable: true }) latency_ms!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}

/** Query of GET /user/integration/{uid}/deliveries: newest first, in pages. */
export class DeliveriesQueryDto extends NewestFirstPageDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATES })
  @IsOptional()
  @IsIn(DELIVERY_STATES, { message: `state must be one of ${DELIVERY_STATES.join(', ')}` })
  state?: DeliveryState;
}

export class TestSendResponse implements TestSendWire {
  @ApiProperty({ description: 'A 2xx answer (webhook) or the broker’s acknowledgement (MQTT, QoS 1; written for QoS 0).' }) delivered!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The receiver’s HTTP status (webhooks); null for MQTT or when no answer came.' })
  response_status!: number | null;
  @ApiProperty() latency_ms!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}
