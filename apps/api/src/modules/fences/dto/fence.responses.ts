import { ApiProperty } from '@nestjs/swagger';
import type { DeletedWire, FenceDeviceWire, FenceWire, GeoJsonPolygon } from '@dts/domain';
import { GeoJsonPolygonSchema } from '../../../common/openapi/api-envelope.decorator';

export class FenceResponse implements FenceWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: GeoJsonPolygonSchema }) geometry!: GeoJsonPolygon;
  @ApiProperty() created_unix!: number;
}

export class FenceDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class FenceDeviceResponse implements FenceDeviceWire {
  @ApiProperty({ example: '70B3D57ED0001234' }) devEUI!: string;
  @ApiProperty() label!: string;
  @ApiProperty() lat!: number;
  @ApiProperty() lon!: number;
  @ApiProperty({
    enum: ['reported', 'installation'],
    description: 'The last reported position, or the installation position of a device that never reported one.',
  })
  position!: 'reported' | 'installation';
}
