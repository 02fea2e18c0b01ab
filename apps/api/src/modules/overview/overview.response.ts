import { ApiProperty } from '@nestjs/swagger';
import type { AccountOverviewWire } from '@dts/domain';

class DeviceCountsResponse {
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'An uplink within DEVICE_ONLINE_SECONDS.' }) online!: number;
  @ApiProperty({ description: 'total − online (never seen included).' }) offline!: number;
  @ApiProperty({ description: 'No uplink yet.' }) never_seen!: number;
  @ApiProperty({ description: 'Heard from before, but not in the last 24 hours (a part of offline).' }) silent!: number;
}

class IntegrationCountsResponse {
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Enabled, with every attempt failing since a time (failing_since).' }) failing!: number;
  @ApiProperty({ description: 'Disabled by the account or by the service.' }) disabled!: number;
}

export class AccountOverviewResponse implements AccountOverviewWire {
  @ApiProperty({ type: DeviceCountsResponse }) devices!: DeviceCountsResponse;
  @ApiProperty({ description: 'Uplinks of the account’s devices received in the last 24 hours.' }) uplinks_24h!: number;
  @ApiProperty({ description: 'Camera-trap images of the account’s devices (not deleted).' }) images!: number;
  @ApiProperty({ description: 'Commands not yet final: Created, Scheduled or Sent.' }) commands_pending!: number;
  @ApiProperty({ description: 'Alerts of the account’s rules not cleared yet.' }) alerts_active!: number;
  @ApiProperty({ type: IntegrationCountsResponse }) integrations!: IntegrationCountsResponse;
  @ApiProperty() online_threshold_s!: number;
}
