import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, registerDecorator, type ValidationOptions } from 'class-validator';
import type {
  CodecExample,
  CodecExampleKind,
  CodecExampleResult,
  CodecExampleWire,
  CodecLimitsWire,
  CodecTryWire,
  CodecWire,
  CreateCodecRequest,
  DeletedWire,
  UpdateCodecRequest,
  ImportCodecRequest,
  TryCodecRequest,
} from '@dts/domain';
import { CODEC_LIMITS } from '@dts/platform';
import { INT4_MAX } from '../../../common/http/query-values';
import { CODEC_FILES_MAX, CODEC_YAML_MAX_BYTES } from '../device-repository-codec';
import { ANY_VALUE_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

const SCRIPT_DESCRIPTION =
  'JavaScript defining decodeUplink(input) with input {bytes, fPort}, returning {data, warnings, errors}: the codec convention ' +
  `LoRaWAN device makers publish; optionally encodeDownlink({data}) and normalizeUplink({data}). At most ${CODEC_LIMITS.maxScriptBytes} bytes. ` +
  'It runs in a QuickJS sandbox: no Node APIs, 16 MiB per allocation, 128 MiB per codec thread and 50 ms per call.';

export class CreateCodecDto implements CreateCodecRequest {
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
    description: SCRIPT_DESCRIPTION,
    example: 'function decodeUplink(input) { return { data: { temperature: ((input.bytes[0] << 8) | input.bytes[1]) / 100 }, warnings: [], errors: [] }; }',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(CODEC_LIMITS.maxScriptBytes)
  script!: string;
}

/** PATCH /user/codec/{uid}: any of the members, at least one. */
export class UpdateCodecDto implements UpdateCodecRequest {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    maxLength: CODEC_LIMITS.maxScriptBytes,
    description: `${SCRIPT_DESCRIPTION} A new script runs the codec’s examples again and decodes its devices’ history again.`,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CODEC_LIMITS.maxScriptBytes)
  script?: string;
}

/** A map of file name to script text: at most CODEC_FILES_MAX files, names of at most 200 characters. */
function IsFileMap(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isFileMap',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must map at most ${CODEC_FILES_MAX} file names (1–200 characters) to script text`, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length >= 1 &&
          Object.keys(value).length <= CODEC_FILES_MAX &&
          Object.entries(value).every(([k, v]) => k.length >= 1 && k.length <= 200 && typeof v === 'string' && v.length <= CODEC_LIMITS.maxScriptBytes),
      },
    });
}

export class ImportCodecDto implements ImportCodecRequest {
  @ApiProperty({ maxLength: 100, example: 'Decentlab DL-SHT35' })
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
    maxLength: CODEC_YAML_MAX_BYTES,
    description:
      'The codec YAML of The Things Network device repository (vendor/<vendor>/<codec>-codec.yaml): uplinkDecoder (required), downlinkEncoder, downlinkDecoder, each with fileName and examples.',
    example:
      'uplinkDecoder:\n  fileName: windsensor.js\n  examples:\n    - input: { fPort: 1, bytes: [0, 32] }\n      output: { data: { direction: N, speed: 32 } }\n',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(CODEC_YAML_MAX_BYTES)
  yaml!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `The scripts the YAML names, by their fileName (at most ${CODEC_FILES_MAX}; together at most ${CODEC_LIMITS.maxScriptBytes} bytes).`,
    example: { 'windsensor.js': 'function decodeUplink(input) { … }' },
  })
  @IsFileMap()
  files!: Record<string, string>;
}

export class TryCodecDto implements TryCodecRequest {
  @ApiProperty({ maxLength: CODEC_LIMITS.maxScriptBytes, description: 'The draft script; nothing is stored.' })
  @IsString()
  @MinLength(1)
  @MaxLength(CODEC_LIMITS.maxScriptBytes)
  script!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 255, description: 'The LoRaWAN FPort of the bytes (required with them).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(255)
  fPort?: number;

  @ApiPropertyOptional({ example: '0167010E', description: 'The bytes to decode, hex (at most 242 bytes); or payload_base64.' })
  @IsOptional()
  @IsString()
  @MaxLength(484)
  @Matches(/^(?:[0-9a-fA-F]{2})*$/, { message: 'payload_hex must be hexadecimal, two digits a byte' })
  payload_hex?: string;

  @ApiPropertyOptional({ example: 'AWcBDg==', description: 'The bytes to decode, Base64.' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  payload_base64?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'A codec of the account whose examples to run with this script.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  examples_of?: number;
}

export class CodecExampleResultResponse implements CodecExampleResult {
  @ApiProperty() passed!: boolean;
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'What the codec returned (null when it failed to run).' })
  actual!: unknown;
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'What normalizeUplink returned.' })
  normalized_actual!: unknown;
  @ApiProperty({ type: String, nullable: true, description: 'The first difference, or the limit the codec hit.' }) message!: string | null;
}

export class CodecExampleResponse implements CodecExampleWire {
  @ApiProperty({ enum: ['uplink', 'downlink_encode', 'downlink_decode'] }) kind!: CodecExampleKind;
  @ApiProperty() description!: string;
  @ApiProperty({
    type: 'object',
    properties: { fPort: { type: 'integer' }, bytes: { type: 'array', items: { type: 'integer' } }, data: {} },
  })
  input!: CodecExample['input'];
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'The output the example expects.' }) output!: unknown;
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'What normalizeUplink must return; null when the example says nothing of it.' }) normalized_output!: unknown;
  @ApiProperty({ type: CodecExampleResultResponse, nullable: true, description: 'null: not run (the CPU budget was spent).' })
  result!: CodecExampleResultResponse | null;
}

export class CodecResponse implements CodecWire {
  @ApiProperty({ description: 'Use it as a device’s decoder_ref.' }) uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() script!: string;
  @ApiProperty({ type: [CodecExampleResponse], description: 'The codec’s own test cases (from an imported codec YAML) with their results for this script.' })
  examples!: CodecExampleResponse[];
  @ApiProperty() updated_unix!: number;
}

export class CodecDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class CodecLimitsResponse implements CodecLimitsWire {
  @ApiProperty() max_script_bytes!: number;
  @ApiProperty() memory_bytes!: number;
  @ApiProperty() stack_bytes!: number;
  @ApiProperty() call_ms!: number;
  @ApiProperty({ description: 'For this script: 200 ms and 1 ms per KiB.' }) load_ms!: number;
  @ApiProperty() cpu_ms_per_request!: number;
  @ApiProperty() cpu_ms_per_minute!: number;
}

export class CodecTryDecodedResponse {
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'What decodeUplink returned (null when it failed).' }) output!: unknown;
  @ApiProperty({ ...ANY_VALUE_SCHEMA, description: 'What normalizeUplink returned.' }) normalized!: unknown;
  @ApiProperty() valid!: boolean;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload_decoded!: Record<string, unknown>;
  @ApiProperty({ type: [String], description: 'payload_errors as the uplink would store them ([] for none).' }) payload_errors!: string[];
  @ApiProperty({ type: [String], description: 'payload_warnings as the uplink would store them ([] for none).' }) payload_warnings!: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) measurements!: Record<string, unknown>;
}

export class CodecTryResponse implements CodecTryWire {
  @ApiProperty({ type: String, nullable: true, description: 'Why the script cannot serve as a codec, or null.' }) problem!: string | null;
  @ApiProperty({ type: CodecTryDecodedResponse, nullable: true }) decoded!: CodecTryDecodedResponse | null;
  @ApiProperty({ type: [CodecExampleResponse] }) examples!: CodecExampleResponse[];
  @ApiProperty({ description: 'Codec time spent, loading included; charged to the account’s budget.' }) cpu_ms!: number;
  @ApiProperty({ type: CodecLimitsResponse }) limits!: CodecLimitsResponse;
}
