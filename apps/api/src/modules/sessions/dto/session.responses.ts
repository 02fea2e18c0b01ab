import { ApiProperty } from '@nestjs/swagger';
import type { SessionActiveWire, SessionAttributesWire, SessionCookieWire } from '@dts/domain';

export class SessionActiveResponse implements SessionActiveWire {
  @ApiProperty() active!: boolean;
  @ApiProperty({ type: Number, nullable: true }) expires_unix!: number | null;
}

export class SessionCookieResponse implements SessionCookieWire {
  @ApiProperty({ example: 'dts_session' }) name!: string;
  @ApiProperty({ type: Number, nullable: true }) expires_unix!: number | null;
  @ApiProperty() http_only!: boolean;
  @ApiProperty() secure!: boolean;
  @ApiProperty({ enum: ['lax', 'strict', 'none'] }) same_site!: 'lax' | 'strict' | 'none';
}

export class SessionAttributesResponse implements SessionAttributesWire {
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ type: Number, nullable: true }) created_unix!: number | null;
  @ApiProperty({ type: Number, nullable: true }) last_seen_unix!: number | null;
}
