import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { IngestEventWire, IngestRejectionWire, IngestResultWire } from '@dts/domain';

export class IngestRejectionResponse implements IngestRejectionWire {
  @ApiProperty({ description: 'Position of the item in the delivery (0 for a single message).' }) index!: number;
  @ApiProperty({ type: String, nullable: true }) devEUI!: string | null;
  @ApiProperty({ enum: ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND'] }) code!: IngestRejectionWire['code'];
  @ApiProperty() message!: string;
}

export class IngestEventResponse implements IngestEventWire {
  @ApiProperty({ description: 'The network’s name of the message (The Things Stack’s message member, ChirpStack’s event).', example: 'join_accept' })
  type!: string;
  @ApiProperty({ description: 'What the service did with it.', example: 'device activity times span the join' }) action!: string;
}

export class IngestResultResponse implements IngestResultWire {
  @ApiProperty({ description: 'Uplinks stored now (for a network message that is not an uplink: 1 when it changed something).' }) accepted!: number;
  @ApiProperty({ description: 'Redeliveries of uplinks stored before (dropped).' }) duplicates!: number;
  @ApiProperty({ type: [IngestRejectionResponse] }) rejected!: IngestRejectionResponse[];
  @ApiPropertyOptional({
    type: IngestEventResponse,
    description: 'For a network message that is neither an uplink nor a downlink’s status (a join, a status, a position, a log, the rest): what was done.',
  })
  event?: IngestEventResponse;
}
