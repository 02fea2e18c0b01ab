import { ApiProperty } from '@nestjs/swagger';
import type { DeviceMetaWire, DeviceRelation, DeviceRelationWire, DeviceRemovedWire, DeviceShareWire, DeviceUnsharedWire, AnyJson } from '@dts/domain';
import { ANY_JSON_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

const int = { type: 'integer', nullable: true } as const;
const num = { type: Number, nullable: true } as const;

export class DeviceMetaResponse implements DeviceMetaWire {
  @ApiProperty({ type: 'integer' }) uid!: number;
  @ApiProperty({ ...int, description: 'Same as uid.' }) device_ref!: number | null;
  @ApiProperty({ ...int, description: 'Same as uid.' }) id!: number | null;
  @ApiProperty(int) user_ref!: number | null;
  @ApiProperty(int) owner_ref!: number | null;
  @ApiProperty(int) decoder_ref!: number | null;
  @ApiProperty(int) type_ref!: number | null;
  @ApiProperty(int) network_ref!: number | null;
  @ApiProperty(int) icon_ref!: number | null;
  @ApiProperty(int) ts_activity_first_unix!: number | null;
  @ApiProperty(int) ts_activity_last_unix!: number | null;
  @ApiProperty({
    ...int,
    description: 'Where the stored data begins: moves forward when a retention removes older raw uplinks (null when none is left).',
  })
  ts_data_first_unix!: number | null;
  @ApiProperty(int) ts_data_last_unix!: number | null;
  @ApiProperty(num) battery_percent!: number | null;
  @ApiProperty(num) battery_voltage!: number | null;
  @ApiProperty({ ...num, description: 'Tenths of a degree Celsius.' }) temperature_dc!: number | null;
  @ApiProperty(num) installation_lat!: number | null;
  @ApiProperty(num) installation_lon!: number | null;
  @ApiProperty(num) lat!: number | null;
  @ApiProperty(num) lon!: number | null;
  @ApiProperty(num) alt!: number | null;
  @ApiProperty({ type: String, nullable: true }) firmware_version!: string | null;
  @ApiProperty(num) signal_percent!: number | null;
  @ApiProperty(num) signal_dbm!: number | null;
  @ApiProperty({
    ...num,
    description:
      'Link margin in dB as the network last reported it (ChirpStack `status`: the demodulation SNR margin of the device’s last DevStatusAns, −32..32); read-only.',
  })
  margin_db!: number | null;
  @ApiProperty({
    ...int,
    example: 30,
    description: 'The device’s own retention of raw uplinks in days, set by its owner and no longer than its account’s; null: none of its own.',
  })
  uplink_retention_days!: number | null;
  @ApiProperty({
    ...int,
    example: 30,
    description:
      'The retention in force for the device’s raw uplinks, in days: its own where shorter, else its account’s (the account’s own or the platform default); null: kept forever. Rollups (series) outlive it.',
  })
  uplink_retention_effective_days!: number | null;
  @ApiProperty({ example: '70B3D57ED0001234' }) devEUI!: string;
  @ApiProperty({ example: 'LoRaWAN', description: 'Type of the device’s network.' }) type!: string;
  @ApiProperty({ description: 'Owner’s username.' }) username!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: String, nullable: true }) folder!: string | null;
  @ApiProperty({ ...ANY_JSON_SCHEMA, description: 'Any JSON the owner gave; null when none.' }) tags!: AnyJson;
}

export class DeviceRemovedResponse implements DeviceRemovedWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty({ enum: [true] }) removed!: true;
}

export class DeviceRelationResponse implements DeviceRelationWire {
  @ApiProperty({ enum: ['owner', 'shared', 'none'] }) result!: DeviceRelation;
}

export class DeviceShareResponse implements DeviceShareWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
}

export class DeviceUnsharedResponse implements DeviceUnsharedWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty() user_id!: number;
  @ApiProperty({ enum: [true] }) removed!: true;
}
