import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ACCOUNT_KINDS,
  type AccountKind,
  ADMIN_ACCOUNTS_MAX_LIMIT,
  type AdminAccountUpdateRequest,
  type AdminAccountWire,
  type AdminPasswordResetWire,
  MAX_DEVICES_LIMIT,
} from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { toIntFromQuery } from '../../../common/http/query-values';
import { RetentionDays } from '../../../common/http/validators';

/** GET /admin/accounts: a search and a page. */
export class AdminAccountsQueryDto {
  @ApiPropertyOptional({ description: 'Text the username or e-mail contains, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ enum: ACCOUNT_KINDS, description: 'People or organisations only (docs/api.md §20).' })
  @IsOptional()
  @IsIn(ACCOUNT_KINDS, { message: `kind must be one of ${ACCOUNT_KINDS.join(', ')}` })
  kind?: AccountKind;

  @ApiPropertyOptional({ minimum: 1, maximum: ADMIN_ACCOUNTS_MAX_LIMIT, default: 100 })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(ADMIN_ACCOUNTS_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page (with the same q).' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a next_cursor this route returned' })
  cursor?: string;
}

/** PATCH /admin/accounts/{id}: the expiration, the device limit and/or the retention (an empty body is refused by the service). */
export class AdminAccountUpdateDto implements AdminAccountUpdateRequest {
  @ApiPropertyOptional({ example: '2027-12-31', description: 'The last day the account may register devices (YYYY-MM-DD, UTC).' })
  // Absent is no change; null is refused (an account always has both).
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: 'expiration must be a date YYYY-MM-DD' })
  expiration?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_DEVICES_LIMIT, description: 'Devices the account may own; existing devices above it stay.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt({ message: 'max_devices must be an integer' })
  @Min(0)
  @Max(MAX_DEVICES_LIMIT)
  max_devices?: number;

  // Absent is no change; null is a value (the platform default).
  @RetentionDays(
    'Days the account’s raw uplinks are kept, replacing the platform default (UPLINK_RETENTION_DAYS) for its devices, longer or shorter; null: the platform default again. The worker removes what it has passed within minutes; rollups (series) outlive it.',
  )
  uplink_retention_days?: number | null;

  @ApiPropertyOptional({
    enum: [0, 1],
    description:
      '0 disables the account: its sessions end and its API tokens stop, on every instance, at once, and it cannot sign in; 1 enables it again (its tokens work again). Not the caller’s own account.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn([0, 1], { message: 'active must be 0 or 1' })
  active?: 0 | 1;
}

export class AdminPasswordResetResponse implements AdminPasswordResetWire {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'Where the reset link is mailed: the account’s address.' }) email!: string;
}

export class AdminAccountResponse implements AdminAccountWire {
  @ApiProperty() id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) fullname!: string | null;
  @ApiProperty({ description: '1 administrator, 2 user.' }) groupid!: number;
  @ApiProperty({ enum: [0, 1] }) active!: 0 | 1;
  @ApiProperty({ example: '2026-05-01 12:00:00' }) created!: string;
  @ApiProperty({ type: String, nullable: true }) last_login!: string | null;
  @ApiProperty({ example: '2027-05-01' }) expiration!: string;
  @ApiProperty() max_devices!: number;
  @ApiProperty({ description: 'Devices the account owns.' }) devices!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'The account’s own retention of raw uplinks in days; null: the platform default applies.',
  })
  uplink_retention_days!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 365,
    description: 'The retention in force for the account’s devices: its own, else the platform default; null: kept forever.',
  })
  uplink_retention_effective_days!: number | null;
  @ApiProperty({ enum: ACCOUNT_KINDS, description: '`organisation`: an account people act in as members; it never signs in (docs/api.md §20).' })
  kind!: AccountKind;
  @ApiProperty({ type: 'integer', nullable: true, description: 'An organisation’s members (GET /admin/accounts/{id}/members); null for a person.' })
  members!: number | null;
}
