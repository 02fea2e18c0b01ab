import { toUnix, type UserSessionWire } from '@dts/domain';
import type { StoredSession } from '../../common/auth/session-store';

/** A stored session as its owner sees it in GET /user/session. */
export function toUserSessionWire(id: string, session: StoredSession, current: boolean): UserSessionWire {
  return {
    id,
    current,
    created_unix: toUnix(session.createdAt),
    last_seen_unix: toUnix(session.lastSeenAt),
    expires_unix: toUnix(session.expiresAt),
    user_agent: session.userAgent,
    ip: session.clientIp,
  };
}
