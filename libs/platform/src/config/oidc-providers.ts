import { Secret } from './secret';

/**
 * One OpenID Connect provider people may sign in with (docs/api.md §3, "Single sign-on"), as
 * OIDC_PROVIDERS lists it: `[{"id", "name", "issuer", "client_id", "client_secret", "role_claim"?,
 * "role_organisations"?, "link_by_email"?}]`.
 */
export interface OidcProviderSettings {
  /** In the routes (`/auth/oidc/{id}/start`): 1-32 of a-z 0-9 -. */
  readonly id: string;
  /** On the sign-in page: "Sign in with …". */
  readonly name: string;
  /** Its discovery document is `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /**
   * A claim holding `<organisation>:<role>` entries: each makes the account a member of that
   * organisation with that role at sign-in (an organisation that does not exist is skipped).
   */
  readonly roleClaim: string | null;
  /**
   * The organisations (names, any case) the role claim may make members of: no provider reaches
   * an organisation its owners did not put here. Required with `role_claim`.
   */
  readonly roleOrganisations: readonly string[];
  /**
   * Whether a subject's first sign-in links to an existing account with the same verified address
   * (`link_by_email`, default false: such an address is refused, and the person signs in with their
   * password). Only for a provider the operator trusts with the accounts' addresses.
   */
  readonly linkByEmail: boolean;
}

const ID = /^[a-z0-9-]{1,32}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Parses OIDC_PROVIDERS; throws with a message naming the entry and the member (never a secret). */
export function parseOidcProviders(json: string): OidcProviderSettings[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('must be a JSON array of providers');
  }
  if (!Array.isArray(raw)) throw new Error('must be a JSON array of providers');
  const ids = new Set<string>();
  return raw.map((entry: unknown, position) => {
    const where = `entry ${position}`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where} is not an object`);
    const e = entry as Record<string, unknown>;
    const text = (name: string, required = true): string | null => {
      const value = e[name];
      if (value === undefined && !required) return null;
      if (typeof value !== 'string' || value.trim() === '') throw new Error(`${where}: ${name} must be a non-empty string`);
      return value.trim();
    };
    const id = text('id')!;
    if (!ID.test(id)) throw new Error(`${where}: id must be 1-32 of a-z 0-9 -`);
    if (ids.has(id)) throw new Error(`${where}: id ${id} is given twice`);
    ids.add(id);
    const issuer = text('issuer')!.replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new Error(`${where}: issuer must be a URL`);
    }
    // Plain HTTP only on this machine (a provider under test); anywhere else it would carry tokens in the clear.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
      throw new Error(`${where}: issuer must be an https:// URL (http:// only on 127.0.0.1 or localhost)`);
    }
    const roleClaim = text('role_claim', false);
    const organisations = e.role_organisations;
    if (organisations !== undefined && (!Array.isArray(organisations) || organisations.some((o) => typeof o !== 'string' || o.trim() === ''))) {
      throw new Error(`${where}: role_organisations must be a list of organisation names`);
    }
    if (roleClaim !== null && organisations === undefined)
      throw new Error(`${where}: role_claim needs role_organisations, the organisations it may make members of`);
    const link = e.link_by_email;
    if (link !== undefined && typeof link !== 'boolean') throw new Error(`${where}: link_by_email must be true or false`);
    return {
      id,
      name: text('name')!,
      issuer,
      clientId: text('client_id')!,
      clientSecret: new Secret(text('client_secret')!),
      roleClaim,
      roleOrganisations: ((organisations ?? []) as string[]).map((o) => o.trim().toLowerCase()),
      linkByEmail: link === true,
    };
  });
}
