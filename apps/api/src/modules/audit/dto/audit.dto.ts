import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_MAX_LIMIT, AUDIT_RESULTS, type AuditEventWire, type AuditQuery, type AuditResult } from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { toIntFromQuery, UnixSecondsQuery } from '../../../common/http/query-values';

/** GET /admin/audit: filters (each narrows), a page, or every match as CSV. */
export class AuditQueryDto implements AuditQuery {
  @ApiPropertyOptional({ description: 'Calls of this account.' })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'account_id must be an integer' })
  @Min(1)
  @Max(2_147_483_647)
  account_id?: number;

  @ApiPropertyOptional({ description: 'Calls of this username, or sign-ins tried with it (any case).' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username?: string;

  @ApiPropertyOptional({ description: 'Text the action contains, any case: `/admin/`, `DELETE `, `/auth/login`.', example: '/auth/login' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({ enum: AUDIT_RESULTS, description: '`success`: answered below 400; `failure`: refused or failed.' })
  @IsOptional()
  @IsIn(AUDIT_RESULTS, { message: `result must be one of ${AUDIT_RESULTS.join(', ')}` })
  result?: AuditResult;

  @UnixSecondsQuery('At or after this time (unix seconds).')
  from?: number;

  @UnixSecondsQuery('Before this time (unix seconds).')
  to?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: AUDIT_MAX_LIMIT, default: 100, description: 'Records per page (JSON only).' })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(AUDIT_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page, with the same filters (JSON only).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a next_cursor this route returned' })
  cursor?: string;

  @ApiPropertyOptional({ enum: ['json', 'csv'], description: '`csv`: every record that matches, newest first, streamed as a download.' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: 'json' | 'csv';
}

export class AuditEventResponse implements AuditEventWire {
  @ApiProperty({ example: '1042' }) id!: string;
  @ApiProperty({ example: '2026-11-28T15:04:05.123Z' }) at!: string;
  @ApiProperty({ type: 'integer', nullable: true }) account_id!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The organisation the call acted in; null: the caller’s own account.' }) organisation_id!:
    number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The caller’s username, or the name a sign-in was tried with.' }) username!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) token_uid!: number | null;
  @ApiProperty({ enum: ['session', 'token'], nullable: true }) via!: 'session' | 'token' | null;
  @ApiProperty({ example: 'PATCH /admin/accounts/{id}' }) action!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { id: '12' } }) target!: Record<string, string>;
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ enum: AUDIT_RESULTS }) result!: AuditResult;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
}
