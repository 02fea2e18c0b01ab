import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import type { AsciiCommandRequest, Base64CommandRequest, CommandConfirmed, HexCommandRequest, NamedCommandRequest } from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/**
 * Either the raw form {port, confirmed?, exactly one of payload_hex | payload_base64 |
 * payload_ASCII} or the named form {command, params?, confirmed?} (GET …/available lists them).
 */
export class CreateCommandDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 223, description: 'Raw form: the LoRaWAN FPort.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(223)
  port?: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }],
    default: false,
    description: 'Ask the device to acknowledge (true/false, or 1/0 as commands show it).',
  })
  @IsOptional()
  @Transform(({ value }) => (value === 1 ? true : value === 0 ? false : value))
  @IsBoolean({ message: 'confirmed must be true, false, 1 or 0' })
  confirmed?: boolean;

  @ApiPropertyOptional({ example: '0100000E10' })
  @IsOptional()
  @IsString()
  @MaxLength(484)
  payload_hex?: string;

  @ApiPropertyOptional({ example: 'AQAADhA=' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  payload_base64?: string;

  @ApiPropertyOptional({ example: 'reboot', description: 'Printable ASCII; \\xNN for any other byte.' })
  @IsOptional()
  @IsString()
  @MaxLength(968)
  payload_ASCII?: string;

  @ApiPropertyOptional({
    example: 'set_interval',
    description: 'Named form: a command of GET /user/device/command/{eui}/available; for a device with a codec, any name (a label kept with the command).',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, { message: 'command must be a command name (lower case, digits, _)' })
  command?: string;

  @ApiPropertyOptional({
    example: { seconds: 3600 },
    description: 'Named form: the command’s parameters; for a device with a codec, the `data` its encodeDownlink gets, exactly as sent.',
  })
  @IsOptional()
  @IsObject()
  params?: Record<string, unknown>;
}

/*
 * The documented forms of CreateCommandDto (OpenAPI `oneOf`): a raw downlink in one of three
 * encodings, or a named command. The DTO above validates them as one.
 */
const PORT = { minimum: 1, maximum: 223, description: 'The LoRaWAN FPort.' } as const;
const CONFIRMED: ApiPropertyOptions = {
  oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }],
  default: false,
  description: 'Ask the device to acknowledge (true/false, or 1/0 as commands show it).',
};

export class HexCommandBody implements HexCommandRequest {
  @ApiProperty(PORT) port!: number;
  @ApiPropertyOptional(CONFIRMED) confirmed?: CommandConfirmed;
  @ApiProperty({ example: '0100000E10', description: 'At most 242 bytes.' }) payload_hex!: string;
}

export class Base64CommandBody implements Base64CommandRequest {
  @ApiProperty(PORT) port!: number;
  @ApiPropertyOptional(CONFIRMED) confirmed?: CommandConfirmed;
  @ApiProperty({ example: 'AQAADhA=', description: 'At most 242 bytes.' }) payload_base64!: string;
}

export class AsciiCommandBody implements AsciiCommandRequest {
  @ApiProperty(PORT) port!: number;
  @ApiPropertyOptional(CONFIRMED) confirmed?: CommandConfirmed;
  @ApiProperty({ example: 'reboot', description: 'Printable ASCII; \\xNN for any other byte.' }) payload_ASCII!: string;
}

export class NamedCommandBody implements NamedCommandRequest {
  @ApiProperty({
    example: 'set_interval',
    description: 'A command of GET /user/device/command/{eui}/available; for a device with a codec, any name (a label kept with the command).',
    pattern: '^[a-z][a-z0-9_]{0,63}$',
  })
  command!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { seconds: 3600 },
    description: 'The command’s parameters, by its schemas; for a device with a codec, the `data` its encodeDownlink gets, exactly as sent.',
  })
  params?: Record<string, unknown>;
  @ApiPropertyOptional(CONFIRMED) confirmed?: CommandConfirmed;
}
