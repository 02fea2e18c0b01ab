import { ApiProperty } from '@nestjs/swagger';
import type {
  DatamodelWire,
  DataTypeWire,
  DecoderDetailWire,
  DecoderWire,
  DeviceTypeWire,
  IconWire,
  NetworkByTypeEntryWire,
  NetworkDetailWire,
  NetworkTypeWire,
  NetworkWire,
} from '@dts/domain';

export class NetworkResponse implements NetworkWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: 'ChirpStack' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: String, nullable: true, example: 'REST', description: 'How the network talks to the service: REST or REST_DIRECT.' }) interface!:
    string | null;
  @ApiProperty({ description: 'Network type uid.' }) type_ref!: number;
}

export class NetworkDetailResponse extends NetworkResponse implements NetworkDetailWire {
  @ApiProperty({ type: String, nullable: true }) lorawan_net_id!: string | null;
}

export class NetworkTypeResponse implements NetworkTypeWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: 'LoRaWAN' }) type!: string;
}

export class NetworkByTypeEntryResponse implements NetworkByTypeEntryWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: 'DT-GPS-1 tracker' }) name!: string;
  @ApiProperty({ example: 'device_model' }) __type!: string;
  @ApiProperty({ example: 'dt-gps-1' }) __reference!: string;
  @ApiProperty() manufacturer!: string;
  @ApiProperty() manufacturer_ref!: number;
  @ApiProperty() device_type_ref!: number;
  @ApiProperty({ example: 'Tracker' }) type_name!: string;
}

export class DecoderResponse implements DecoderWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ type: String, nullable: true }) lorawan_net_id!: string | null;
  @ApiProperty({ example: 'Cayenne LPP' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: String, nullable: true }) interface!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Device type uid.' }) type_ref!: number | null;
}

export class DecoderDetailResponse implements DecoderDetailWire {
  @ApiProperty() device!: string;
  @ApiProperty() manufacturer!: string;
}

export class DataTypeResponse implements DataTypeWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: 'Temperature' }) label!: string;
  @ApiProperty({ example: 'temperature', description: 'The member name in data rows and in `filter`.' }) alias!: string;
  @ApiProperty({ example: '°C' }) unit!: string;
}

export class IconResponse implements IconWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty() label!: string;
}

export class DeviceTypeResponse implements DeviceTypeWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: 'Tracker' }) type_name!: string;
}

export class DatamodelResponse implements DatamodelWire {
  @ApiProperty({ type: [NetworkResponse] }) networks!: NetworkResponse[];
  @ApiProperty({ type: [NetworkTypeResponse] }) network_types!: NetworkTypeResponse[];
  @ApiProperty({ type: [DecoderResponse] }) decoders!: DecoderResponse[];
  @ApiProperty({ type: [DataTypeResponse] }) data_types!: DataTypeResponse[];
  @ApiProperty({ type: [IconResponse] }) icons!: IconResponse[];
  @ApiProperty({ type: [DeviceTypeResponse] }) device_types!: DeviceTypeResponse[];
}
