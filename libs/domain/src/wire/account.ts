/** GET /user (docs/api.md §15). `password` is always the mask: the hash never leaves the server. */
export interface AccountWire {
  id: number;
  username: string;
  fullname: string | null;
  email: string;
  /**
   * Whether the owner of `email` confirmed it (docs/api.md §3): until then nothing but the
   * verification and password-reset mails goes to it (no alert mail).
   */
  email_verified: boolean;
  /** An address the account asked to change to (PATCH /user), waiting for its verification; null when none. */
  email_pending: string | null;
  password: '********';
  consent: 0 | 1;
  active: 0 | 1;
  groupid: number;
  created: string;
  last_login: string | null;
  subscription: string;
  expiration: string;
  max_devices: number;
  login_count: number;
  /**
   * The retention of raw uplinks in force for the account's devices, in days: its own value (set
   * by an administrator) or else the platform default; null: kept forever. A device may have a
   * shorter one of its own (docs/api.md §5, "Retention"). `_effective_`, as in device metadata and
   * the admin's account list, where `uplink_retention_days` is an own value.
   */
  uplink_retention_effective_days: number | null;
}

/** groupid values: 1 administrators, 2 users. */
export const GROUP_ADMIN = 1;
export const GROUP_USER = 2;

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

export interface AuthStateWire {
  authenticated: boolean;
}

/** POST /auth/verify: the address just verified, now the account's address. */
export interface EmailVerifiedWire {
  email: string;
  email_verified: true;
}

/**
 * POST /user/email/verify: `to` the address a verification mail is on its way to (the pending
 * address, else the unverified current one); `sent` false, `to` null, when there is nothing to verify.
 */
export interface VerificationMailWire {
  sent: boolean;
  to: string | null;
}

/** A verification token's lifetime (docs/api.md §3). */
export const EMAIL_VERIFICATION_TTL_HOURS = 48;

export interface RegisterResultWire {
  id: number;
}

export interface CredentialCheckWire {
  valid: boolean;
}

export interface EchoWire {
  method: string;
  path: string;
  query: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  authenticated: boolean;
}

/** GET /auth/oidc: an OpenID Connect provider people may sign in with (docs/api.md §3, "Single sign-on"). */
export interface OidcProviderWire {
  id: string;
  name: string;
}
