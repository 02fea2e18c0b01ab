import { SESSION_USER_AGENT_MAX_LENGTH } from '@dts/domain';
import type { Request } from 'express';
import type { SessionClient } from './session-store';

/**
 * Where a sign-in request came from, as kept with the session for GET /user/session. The address
 * is Express' `req.ip`, which follows TRUST_PROXY: X-Forwarded-For is believed only from the hops
 * that setting trusts. An IPv4 client seen on an IPv6 socket is shown as IPv4.
 */
export function sessionClientOf(req: Request): SessionClient {
  const agent = req.headers['user-agent'];
  const ip = req.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return {
    userAgent: typeof agent === 'string' && agent.trim() !== '' ? agent.trim().slice(0, SESSION_USER_AGENT_MAX_LENGTH) : null,
    clientIp: ip ? ip : null,
  };
}
