import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SimulateUplinkRequest } from '@dts/domain';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * POST /user/device/uplink/{eui}/simulate: the REST item's members a person types in (docs/api.md
 * §5, "Simulated uplinks"). The shapes are checked here; the payload itself (hex or Base64, at most
 * 242 bytes, exactly one of the two) by the REST network's own parser, as for a real delivery.
 */
export class SimulateUplinkDto implements SimulateUplinkRequest {
  @ApiProperty({ minimum: 0, maximum: 255, example: 1, description: 'The LoRaWAN FPort.' })
  @IsInt()
  @Min(0)
  @Max(255)
  port!: number;

  @ApiPropertyOptional({ example: '016700E5026864', description: 'The payload in hex (exactly one of payload_hex and payload_raw), at most 242 bytes.' })
  @IsOptional()
  @IsString()
  @MaxLength(484)
  payload_hex?: string;

  @ApiPropertyOptional({ example: 'AWcA5QJoZA==', description: 'The payload in Base64 (exactly one of payload_hex and payload_raw).' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  payload_raw?: string;

  @ApiPropertyOptional({ minimum: -200, maximum: 50, description: 'The signal to record, dBm.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-200)
  @Max(50)
  RSSI?: number;

  @ApiPropertyOptional({ minimum: -50, maximum: 50, description: 'The signal-to-noise ratio to record, dB.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-50)
  @Max(50)
  SNR?: number;
}
