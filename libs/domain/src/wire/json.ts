/**
 * A member that holds whatever JSON the caller gave (device tags, a token's meta), typed as far as
 * JSON goes: a generated client gets this union, not `any`. Shallow on purpose: its inside is the
 * caller's own.
 */
export type AnyJson = string | number | boolean | null | unknown[] | { [key: string]: unknown };
