import type { AnyJson } from './json';
/** API token (docs/api.md §15). `hash` is the token value itself, which docs/api.md §15 lists. */
export interface ApiTokenWire {
  uid: number;
  hash: string;
  user_ref: number;
  created: string;
  until: string | null;
  enabled: 0 | 1;
  type: TokenType;
  name: string | null;
  meta: AnyJson;
  /** What the key may do; null: everything its type allows (docs/api.md §20). */
  rights: KeyRight[] | null;
}

/**
 * What a key may do (docs/api.md §20, "Keys with rights"); a key without a list may do all its type
 * allows. `read`: every read in the account; `devices`, `commands`, `images`, `codecs`,
 * `networks`, `automation` (fences, rules, alerts, integrations): the changes of each; `keys`: list,
 * make and delete keys; `ingest`: send uplinks and images in with the key; `account`: the person's
 * own routes (profile, sessions, organisations, invitations).
 */
export const KEY_RIGHTS = ['read', 'devices', 'commands', 'images', 'codecs', 'networks', 'automation', 'dashboards', 'keys', 'ingest', 'account'] as const;
export type KeyRight = (typeof KEY_RIGHTS)[number];

/** Stored token types. `API` on the wire is an alias of `app`. */
export type TokenType = 'app' | 'master';
export const TOKEN_TYPES: readonly TokenType[] = ['app', 'master'];
export const TOKEN_REQUEST_TYPES = ['API', 'app', 'master'] as const;
export type TokenRequestType = (typeof TOKEN_REQUEST_TYPES)[number];
export const MAX_TOKENS_PER_ACCOUNT = 100;
export const TOKEN_NAME_MAX_LENGTH = 100;
/** 32 bytes from a CSPRNG, shown as 64 lowercase hex characters. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function tokenTypeOf(requested: TokenRequestType): TokenType {
  return requested === 'master' ? 'master' : 'app';
}
