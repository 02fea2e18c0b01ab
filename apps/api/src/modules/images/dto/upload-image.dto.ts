import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

/** The form fields beside `file` (multipart values arrive as text). */
export class UploadImageDto {
  @ApiPropertyOptional({ description: 'When the photo was taken (unix seconds); else its EXIF time; else now.' })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'ts_photo_unix must be unix seconds' })
  @Min(0)
  ts_photo_unix?: number;

  @ApiPropertyOptional({ description: 'When the camera sent it (unix seconds); else ts_photo_unix.' })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'ts_tx_unix must be unix seconds' })
  @Min(0)
  ts_tx_unix?: number;

  @ApiPropertyOptional({ minimum: -90, maximum: 90, description: 'Else the EXIF GPS position.' })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  lat?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180 })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  lon?: number;

  @ApiPropertyOptional({ maxLength: 100, description: 'The camera vendor’s id of the photo.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  vendor_id?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Else the uploaded file’s name.' })
  @IsOptional()
  @IsString()
  @Matches(/^[^/\\\0]{1,255}$/, { message: 'filename must be a file name of 1-255 characters, without / or \\' })
  filename?: string;
}

/** The whole form as the OpenAPI document shows it; `file` itself reaches the handler through multer. */
export class UploadImageForm extends UploadImageDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'JPEG or PNG, at most 20 MiB; recognised by its bytes.' })
  file!: unknown;
}

/** POST /ingest/image: the same, for a device named in the form. */
export class IngestImageDto extends UploadImageDto {
  @ApiProperty({ example: '70B3D57ED0001234' })
  @IsString()
  @MaxLength(23)
  devEUI!: string;
}

export class IngestImageForm extends IngestImageDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'JPEG or PNG, at most 20 MiB; recognised by its bytes.' })
  file!: unknown;
}
