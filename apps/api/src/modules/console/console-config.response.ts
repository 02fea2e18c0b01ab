import { ApiProperty } from '@nestjs/swagger';
import type { ConsoleConfigWire } from '@dts/domain';

class ConsoleMapResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Leaflet tile URL template (MAP_TILE_URL); null: no tiles (MAP_TILE_URL=none), the console draws its bundled base map.',
  })
  tile_url!: string | null;
  @ApiProperty({ description: 'MAP_TILE_ATTRIBUTION.' }) attribution!: string;
  @ApiProperty({ description: 'The deepest zoom of the tile server (MAP_TILE_MAX_ZOOM).' }) max_zoom!: number;
}

export class ConsoleConfigResponse implements ConsoleConfigWire {
  @ApiProperty({ type: ConsoleMapResponse }) map!: ConsoleMapResponse;
  @ApiProperty({ description: 'DEVICE_ONLINE_SECONDS.' }) online_threshold_s!: number;
  @ApiProperty() version!: string;
}
