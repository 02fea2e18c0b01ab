import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class ShareDeviceDto {
  @ApiProperty({ description: 'Username of the account to share the device with.' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username!: string;
}
