import { ApiProperty } from '@nestjs/swagger';
import type { AccountWire } from '@dts/domain';

export class AccountResponse implements AccountWire {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ example: 'alice' }) username!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Alice Example' }) fullname!: string | null;
  @ApiProperty({ example: 'alice@example.org' }) email!: string;
  @ApiProperty({ description: 'Whether the address is confirmed; until then no alert mail goes to it.' }) email_verified!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'An address asked for by PATCH /user, waiting for its verification.' })
  email_pending!: string | null;
  @ApiProperty({ enum: ['********'], description: 'Always masked: the hash never leaves the server.' }) password!: '********';
  @ApiProperty({ enum: [0, 1] }) consent!: 0 | 1;
  @ApiProperty({ enum: [0, 1] }) active!: 0 | 1;
  @ApiProperty({ description: '1 administrator, 2 user', example: 2 }) groupid!: number;
  @ApiProperty({ example: '2026-05-01 12:00:00' }) created!: string;
  @ApiProperty({ type: String, nullable: true, example: '2026-05-02 08:30:00' }) last_login!: string | null;
  @ApiProperty({ example: 'free' }) subscription!: string;
  @ApiProperty({ example: '2027-05-01' }) expiration!: string;
  @ApiProperty({ example: 50 }) max_devices!: number;
  @ApiProperty({ example: 3 }) login_count!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 365,
    description:
      'Days the account’s raw uplinks are kept: its own retention (set by an administrator) or else the platform default; null: kept forever. A device may have a shorter one of its own.',
  })
  uplink_retention_effective_days!: number | null;
}
