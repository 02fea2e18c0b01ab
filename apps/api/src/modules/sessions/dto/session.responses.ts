import { ApiProperty } from '@nestjs/swagger';
import type { SessionActiveWire, SessionAttributesWire, SessionCookieWire, UserSessionEndedWire, UserSessionsEndedWire, UserSessionWire } from '@dts/domain';

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

export class UserSessionResponse implements UserSessionWire {
  @ApiProperty({
    example: '3f9a0c1be27d4a5566e0b1c2',
    description: 'Opaque and stable for the session’s life; never the cookie or derived from it reversibly.',
  })
  id!: string;
  @ApiProperty({ description: 'The session this request came with.' }) current!: boolean;
  @ApiProperty({ example: 1767225600 }) created_unix!: number;
  @ApiProperty({ example: 1767229200, description: 'Moves at most once a minute.' }) last_seen_unix!: number;
  @ApiProperty({ example: 1768435200, description: 'Rolls forward with use.' }) expires_unix!: number;
  @ApiProperty({ type: String, nullable: true, description: 'User-Agent at sign-in (at most 512 characters).' }) user_agent!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7', description: 'Client address at sign-in, per TRUST_PROXY.' }) ip!: string | null;
}

export class UserSessionEndedResponse implements UserSessionEndedWire {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: [true] }) ended!: true;
  @ApiProperty({ description: 'The caller’s own session ended: it is signed out and its cookie cleared.' }) current!: boolean;
}

export class UserSessionsEndedResponse implements UserSessionsEndedWire {
  @ApiProperty({ example: 2, description: 'How many other sessions ended.' }) ended!: number;
}
