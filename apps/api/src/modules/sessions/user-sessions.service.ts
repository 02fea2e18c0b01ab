import { Injectable } from '@nestjs/common';
import type { UserSessionEndedWire, UserSessionsEndedWire, UserSessionWire } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CredentialRevocations } from '../../common/auth/credential-revocations';
import { SessionService } from '../../common/auth/session.service';
import { ApiException } from '../../common/http/api.exception';
import { toUserSessionWire } from './user-session.mapper';

/**
 * The account's sessions, "where you are signed in": listed, ended one by one, or all but the
 * caller's. An ended session stops working at once on every instance (the store is shared), and
 * the notice on the live bus cuts the streams it opened (CredentialRevocations).
 */
@Injectable()
export class UserSessionsService {
  constructor(
    private readonly sessions: SessionService,
    private readonly revocations: CredentialRevocations,
  ) {}

  /** The caller's own session first, then the most recently used. */
  async list(me: AuthPrincipal): Promise<UserSessionWire[]> {
    const own = me.sessionDigest;
    return (await this.sessions.listForAccount(me.accountId))
      .map(({ digest, session }) => toUserSessionWire(this.sessions.publicId(digest), session, own !== null && digest.equals(own)))
      .sort(
        (a, b) => Number(b.current) - Number(a.current) || b.last_seen_unix - a.last_seen_unix || b.created_unix - a.created_unix || (a.id < b.id ? -1 : 1),
      );
  }

  /** Ends one of the account's sessions; another account's id, or one that ended, is 404. */
  async end(me: AuthPrincipal, id: string): Promise<UserSessionEndedWire> {
    const found = (await this.sessions.listForAccount(me.accountId)).find(({ digest }) => this.sessions.publicId(digest) === id);
    if (!found) throw ApiException.notFound('session', 'id');
    await this.sessions.end(found.digest);
    await this.revocations.announce(me.accountId);
    return { id, ended: true, current: me.sessionDigest !== null && found.digest.equals(me.sessionDigest) };
  }

  /** Ends every session of the account but the caller's (all of them when the caller uses a token). */
  async endOthers(me: AuthPrincipal): Promise<UserSessionsEndedWire> {
    const ended = await this.sessions.endAllForAccount(me.accountId, me.sessionDigest);
    await this.revocations.announce(me.accountId);
    return { ended };
  }
}
