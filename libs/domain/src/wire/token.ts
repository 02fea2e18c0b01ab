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
}

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
