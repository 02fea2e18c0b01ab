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
