import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { ActivityEntryWire } from '@dts/domain';
import { toIntFromQuery } from '../../common/http/query-values';

/** Query of GET /user/activity. */
export class ActivityQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 30 })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(100)
  limit?: number;
}

export class ActivityEntryResponse implements ActivityEntryWire {
  @ApiProperty({ enum: ['seen', 'command', 'alert'], description: 'seen: the device’s last activity; command: created or moved; alert: raised or cleared.' })
  kind!: 'seen' | 'command' | 'alert';
  @ApiProperty() at_unix!: number;
  @ApiProperty() devEUI!: string;
  @ApiProperty({ type: String, nullable: true }) label!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The command’s or alert’s uid.' }) uid!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'A command’s status; an alert’s active or cleared.' }) state!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A command’s name (else its port); an alert’s message.' }) text!: string | null;
}
