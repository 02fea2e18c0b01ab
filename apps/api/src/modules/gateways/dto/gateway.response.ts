import { ApiProperty } from '@nestjs/swagger';
import type { GatewayWire } from '@dts/domain';

export class GatewayResponse implements GatewayWire {
  @ApiProperty({ example: 'eui-b827ebfffe000001' }) gateway_id!: string;
  @ApiProperty({ type: 'integer', nullable: true }) network_ref!: number | null;
  @ApiProperty({ type: Number, nullable: true }) lat!: number | null;
  @ApiProperty({ type: Number, nullable: true }) lon!: number | null;
  @ApiProperty() last_seen_unix!: number;
  @ApiProperty({ description: 'Receptions of the caller’s uplinks in the last 24 hours.' }) uplinks_24h!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Mean RSSI (dBm) of the last 24 hours.' }) rssi_avg!: number | null;
}
