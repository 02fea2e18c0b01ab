import { type ApiTokenWire, formatSqlTimestamp, type AnyJson, type KeyRight } from '@dts/domain';
import type { ApiTokenEntity } from '@dts/persistence';

/** `hash` is the decrypted token value: docs/api.md §15 lists it, and the owner needs it to use the token. */
export function toApiTokenWire(token: ApiTokenEntity, value: string): ApiTokenWire {
  return {
    uid: token.uid,
    hash: value,
    user_ref: token.accountId,
    created: formatSqlTimestamp(token.createdAt),
    until: token.until ? formatSqlTimestamp(token.until) : null,
    enabled: token.enabled === 1 ? 1 : 0,
    type: token.type,
    name: token.name,
    meta: (token.meta ?? null) as AnyJson,
    rights: token.rights as KeyRight[] | null,
  };
}
