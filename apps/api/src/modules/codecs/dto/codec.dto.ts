import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { CodecWire } from '@dts/domain';
import { CODEC_LIMITS } from '@dts/platform';

export class CreateCodecDto {
  @ApiProperty({ maxLength: 100, example: 'Dragino LHT65 v1.8' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiProperty({
    maxLength: CODEC_LIMITS.maxScriptBytes,
    description:
      'JavaScript defining decodeUplink(input) with input {bytes, fPort}, returning {data, warnings, errors}: the codec convention ' +
      'LoRaWAN device makers publish. It runs in a QuickJS sandbox: no Node APIs, 16 MiB of memory and 50 ms per uplink.',
    example: 'function decodeUplink(input) { return { data: { temperature: ((input.bytes[0] << 8) | input.bytes[1]) / 100 }, warnings: [], errors: [] }; }',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(CODEC_LIMITS.maxScriptBytes)
  script!: string;
}

export class CodecResponse implements CodecWire {
  @ApiProperty({ description: 'Use it as a device’s decoder_ref.' }) uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() script!: string;
}

export class CodecDeletedResponse {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
