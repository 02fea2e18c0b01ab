import { ApiProperty } from '@nestjs/swagger';
import type { FenceWire, GeoJsonPolygon } from '@dts/domain';

export class FenceResponse implements FenceWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'GeoJSON Polygon' }) geometry!: GeoJsonPolygon;
  @ApiProperty() created_unix!: number;
}

export class FenceDeletedResponse {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
