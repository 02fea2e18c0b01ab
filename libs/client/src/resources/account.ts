import type {
  AccountOverviewWire,
  ActivityEntryWire,
  AccountUpdateRequest,
  AccountWire,
  ApiTokenWire,
  AuthStateWire,
  ConsoleConfigWire,
  CreateTokenRequest,
  CredentialCheckWire,
  EchoWire,
  EmailVerifiedWire,
  LoginRequest,
  OidcProviderWire,
  PasswordChangeRequest,
  RegisterRequest,
  RegisterResultWire,
  RestoreRequest,
  SessionActiveWire,
  SessionAttributesWire,
  SessionCookieWire,
  UserSessionEndedWire,
  UserSessionsEndedWire,
  UserSessionWire,
  VerificationMailWire,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';
import { liveEvents, type LiveEvent } from './live';

export const authApi = (t: Transport) => ({
  /** 201 `{id}`. */
  register: (body: RegisterRequest) => t.data<RegisterResultWire>(ROUTES.authRegister, { body, credentials: 'none' }),
  /** Deletes the caller's account and everything it owns (session or master token). */
  deleteAccount: (password: string) => t.data<{ id: number; deleted: true }>(ROUTES.authDeleteAccount, { body: { password } }),
  /** Starts a session; the client keeps its cookie and sends it from now on. */
  login: async (body: LoginRequest) => {
    t.clearCookies();
    return t.data<AuthStateWire>(ROUTES.authLogin, { body, credentials: 'none' });
  },
  logout: async () => {
    const state = await t.data<AuthStateWire>(ROUTES.authLogout);
    t.clearCookies();
    return state;
  },
  check: (body: LoginRequest) => t.data<CredentialCheckWire>(ROUTES.authCheck, { body, credentials: 'none' }),
  echo: (q?: Record<string, string>) => t.data<EchoWire>(ROUTES.authEcho, { query: q }),
  /** `{email}` mails a reset token; `{token, password}` sets the password. Resolves with the messages. */
  restore: async (body: RestoreRequest) => (await t.request<null>(ROUTES.authRestore, { body, credentials: 'none' })).messages,
  /** Session or master token; the account's other sessions end. Resolves with the messages. */
  changePassword: async (body: PasswordChangeRequest) => (await t.request<null>(ROUTES.authPasswordChange, { body })).messages,
  /** The OpenID Connect providers people may sign in with; a browser signs in at `/auth/oidc/{id}/start`. */
  oidcProviders: () => t.data<OidcProviderWire[]>(ROUTES.authOidcProviders, { credentials: 'none' }),
  /** Confirms an address with the token mailed to it (no credentials needed). */
  verifyEmail: (token: string) => t.data<EmailVerifiedWire>(ROUTES.authVerifyEmail, { body: { token }, credentials: 'none' }),
});

export const userApi = (t: Transport) => ({
  me: () => t.data<AccountWire>(ROUTES.userMe),
  /** A new e-mail address (session or master token): pending until verified, a verification mail sent to it. */
  update: (body: AccountUpdateRequest) => t.data<AccountWire>(ROUTES.userUpdate, { body }),
  /** Sends the verification mail again, to the address there is to verify. */
  requestVerification: () => t.data<VerificationMailWire>(ROUTES.userRequestVerification),
  state: () => t.data<AuthStateWire>(ROUTES.userState),
  /** Devices online and offline, uplinks in 24 h, images, pending commands. */
  overview: () => t.data<AccountOverviewWire>(ROUTES.userOverview),
  /** Newest first: devices heard from, commands created or moved, alerts raised or cleared (`limit` 1–100, default 30). */
  activity: (limit?: number) => t.data<ActivityEntryWire[]>(ROUTES.userActivity, { query: { limit } }),
  /** Settings of the web console (map tiles, online threshold). */
  consoleConfig: () => t.data<ConsoleConfigWire>(ROUTES.uiConfig),
  /**
   * Uplinks, command status changes and the account’s alerts of every device of the account, live (one connection).
   * With `lastEventId` the account's uplinks after it come first.
   */
  live: (options: { lastEventId?: string | number; signal?: AbortSignal } = {}): AsyncIterable<LiveEvent> => liveEvents(t, ROUTES.accountLive, {}, options),
});

export function tokensApi(t: Transport) {
  const tokens = {
    list: () => t.data<ApiTokenWire[]>(ROUTES.tokensList),
    /** 201 with the new token's uid; its value is listed by `list()` (see `createAndGet`). */
    create: (body: CreateTokenRequest) => t.data<number>(ROUTES.tokensCreate, { body }),
    /** Creates a token and returns it as listed, value (`hash`) included. */
    createAndGet: async (body: CreateTokenRequest): Promise<ApiTokenWire> => {
      const uid = await tokens.create(body);
      const token = (await tokens.list()).find((listed) => listed.uid === uid);
      if (!token) throw new Error(`token ${uid} was created but is not listed`);
      return token;
    },
    /** Resolves with the deleted uid. */
    delete: (uid: number | string) => t.data<number>(ROUTES.tokensDelete, { body: { uid } }),
  };
  return tokens;
}

export const sessionsApi = (t: Transport) => ({
  active: () => t.data<SessionActiveWire>(ROUTES.sessionActive),
  cookie: () => t.data<SessionCookieWire>(ROUTES.sessionCookie),
  attributes: () => t.data<SessionAttributesWire>(ROUTES.sessionAttributes),
  /** The account's live sessions, the caller's own first (`current`). Session or master token. */
  list: () => t.data<UserSessionWire[]>(ROUTES.userSessionsList),
  /** Ends one session by its listed id; ending the client's own is a sign-out (the cookie is dropped). */
  end: async (id: string) => {
    const ended = await t.data<UserSessionEndedWire>(ROUTES.userSessionsEnd, { params: { id } });
    if (ended.current) t.clearCookies();
    return ended;
  },
  /** Ends every other session of the account (every one of them, called with a master token). */
  endOthers: () => t.data<UserSessionsEndedWire>(ROUTES.userSessionsEndOthers),
});
