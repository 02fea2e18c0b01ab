import { ApiProperty } from '@nestjs/swagger';
import { type ApiTokenWire, type TokenType, type AnyJson, KEY_RIGHTS, type KeyRight } from '@dts/domain';
import { ANY_JSON_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

export class ApiTokenResponse implements ApiTokenWire {
  @ApiProperty({ example: 7 }) uid!: number;
  @ApiProperty({ description: 'The token value (64 hex characters); empty for an organisation’s key another member made (docs/api.md §20).', example: '9f2c…' })
  hash!: string;
  @ApiProperty({ example: 42 }) user_ref!: number;
  @ApiProperty({ example: '2026-05-01 12:00:00' }) created!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) until!: string | null;
  @ApiProperty({ enum: [0, 1] }) enabled!: 0 | 1;
  @ApiProperty({ enum: ['app', 'master'] }) type!: TokenType;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ ...ANY_JSON_SCHEMA, description: 'Any JSON; null when unset.' }) meta!: AnyJson;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...KEY_RIGHTS] },
    nullable: true,
    description: 'What the key may do (docs/api.md §20); null: everything its type allows.',
  })
  rights!: KeyRight[] | null;
}
