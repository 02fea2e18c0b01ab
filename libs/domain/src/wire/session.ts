export interface SessionActiveWire {
  active: boolean;
  expires_unix: number | null;
}

/** Describes the session cookie without ever carrying its value. */
export interface SessionCookieWire {
  name: string;
  expires_unix: number | null;
  http_only: boolean;
  secure: boolean;
  same_site: 'lax' | 'strict' | 'none';
}

export interface SessionAttributesWire {
  user_id: number;
  username: string;
  created_unix: number | null;
  last_seen_unix: number | null;
}

/**
 * GET /user/session: one of the account's live sessions ("where you are signed in"). `id` is
 * opaque and stable for the session's life; it is neither the cookie nor derived from it in a way
 * that could be reversed. `user_agent` and `ip` are what the service saw at sign-in (null for a
 * session started before they were kept); `last_seen_unix` moves at most once a minute.
 */
export interface UserSessionWire {
  id: string;
  /** The session the request came with. */
  current: boolean;
  created_unix: number;
  last_seen_unix: number;
  expires_unix: number;
  user_agent: string | null;
  ip: string | null;
}

/** DELETE /user/session/{id}. `current`: the caller's own session ended (a sign-out). */
export interface UserSessionEndedWire {
  id: string;
  ended: true;
  current: boolean;
}

/** DELETE /user/session: how many of the account's other sessions ended. */
export interface UserSessionsEndedWire {
  ended: number;
}

/** A session's id: this many lowercase hexadecimal characters. */
export const USER_SESSION_ID_LENGTH = 24;
export const USER_SESSION_ID_PATTERN = /^[0-9a-f]{24}$/;
/** The user agent kept with a session is cut to this many characters. */
export const SESSION_USER_AGENT_MAX_LENGTH = 512;
