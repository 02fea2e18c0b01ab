import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, MinLength, registerDecorator, ValidateNested } from 'class-validator';
import { DEVICE_FILTER_MAX_EUIS, DEVICE_FILTER_MAX_TAGS, normalizeEui } from '@dts/domain';

function EachEui() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'eachEui',
      target: object.constructor,
      propertyName,
      options: { message: `each value in ${propertyName} must be an EUI (16 hexadecimal characters)` },
      validator: { validate: (value: unknown) => !Array.isArray(value) || value.every((v) => normalizeEui(v) !== null) },
    });
}

/**
 * Which devices of the account (owned or shared with it): every criterion given must hold — one of
 * the EUIs, the folder, one of the tags (a string of the device's tags array, or a key of its tags
 * object). Absent or null: every device.
 */
export class DeviceFilterDto {
  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: DEVICE_FILTER_MAX_EUIS, example: ['70B3D57ED0000A01'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DEVICE_FILTER_MAX_EUIS)
  @EachEui()
  euis?: string[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Vondelpark' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  folder?: string | null;

  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: DEVICE_FILTER_MAX_TAGS, example: ['tracker'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DEVICE_FILTER_MAX_TAGS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(100, { each: true })
  tags?: string[] | null;
}

/** The `devices` member of integrations and alert rules: a DeviceFilterDto, optional, null for all. */
export function DevicesMember() {
  return applyDecorators(
    ApiPropertyOptional({ type: DeviceFilterDto, nullable: true, description: 'Which devices; absent or null: all of the account’s.' }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => DeviceFilterDto),
  );
}
