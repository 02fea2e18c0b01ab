import { ApiProperty } from '@nestjs/swagger';
import type { IngestRejectionWire, IngestResultWire } from '@dts/domain';

export class IngestRejectionResponse implements IngestRejectionWire {
  @ApiProperty({ description: 'Position of the item in the delivery (0 for a single message).' }) index!: number;
  @ApiProperty({ type: String, nullable: true }) devEUI!: string | null;
  @ApiProperty({ enum: ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND'] }) code!: IngestRejectionWire['code'];
  @ApiProperty() message!: string;
}

export class IngestResultResponse implements IngestResultWire {
  @ApiProperty({ description: 'Uplinks stored now.' }) accepted!: number;
  @ApiProperty({ description: 'Redeliveries of uplinks stored before (dropped).' }) duplicates!: number;
  @ApiProperty({ type: [IngestRejectionResponse] }) rejected!: IngestRejectionResponse[];
}
