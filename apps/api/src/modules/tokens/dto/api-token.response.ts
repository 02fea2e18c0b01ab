import { ApiProperty } from '@nestjs/swagger';
import type { ApiTokenWire, TokenType } from '@dts/domain';

export class ApiTokenResponse implements ApiTokenWire {
  @ApiProperty({ example: 7 }) uid!: number;
  @ApiProperty({ description: 'The token value (64 hex characters).', example: '9f2c…' }) hash!: string;
  @ApiProperty({ example: 42 }) user_ref!: number;
  @ApiProperty({ example: '2026-05-01 12:00:00' }) created!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) until!: string | null;
  @ApiProperty({ enum: [0, 1] }) enabled!: 0 | 1;
  @ApiProperty({ enum: ['app', 'master'] }) type!: TokenType;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ nullable: true, description: 'Free-form; null when unset.' }) meta!: unknown;
}
