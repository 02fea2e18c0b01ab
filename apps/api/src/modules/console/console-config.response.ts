import { ApiProperty } from '@nestjs/swagger';
import type { ConsoleConfigWire } from '@dts/domain';

class ConsoleMapResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Leaflet tile URL template; null: no tiles (MAP_TILE_URL=none).' }) tile_url!: string | null;
  @ApiProperty() attribution!: string;
  @ApiProperty() max_zoom!: number;
}

export class ConsoleConfigResponse implements ConsoleConfigWire {
  @ApiProperty({ type: ConsoleMapResponse }) map!: ConsoleMapResponse;
  @ApiProperty({ description: 'DEVICE_ONLINE_SECONDS.' }) online_threshold_s!: number;
  @ApiProperty() version!: string;
}
