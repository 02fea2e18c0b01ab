/** GET /user (docs/api.md §15). `password` is always the mask: the hash never leaves the server. */
export interface AccountWire {
  id: number;
  username: string;
  fullname: string | null;
  email: string;
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
