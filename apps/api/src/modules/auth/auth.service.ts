import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type AuthStateWire,
  type CredentialCheckWire,
  type EmailVerifiedWire,
  formatDate,
  GROUP_ADMIN,
  GROUP_USER,
  type RegisterResultWire,
} from '@dts/domain';
import {
  AccountsRepository,
  DeviceHandoversRepository,
  DevicesRepository,
  EmailVerificationsRepository,
  OrganisationsRepository,
  ImagesRepository,
  PasswordResetsRepository,
  SessionsRepository,
  TokensRepository,
} from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, TokenCryptoService } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { PasswordHasher } from '../../common/auth/password-hasher.service';
import { CredentialRevocations } from '../../common/auth/credential-revocations';
import type { SessionClient } from '../../common/auth/session-store';
import { type SessionCookie, SessionService } from '../../common/auth/session.service';
import { ApiException } from '../../common/http/api.exception';
import { LoginFailures } from '../../common/throttling/login-failures';
import type { LoginDto } from './dto/login.dto';
import type { PasswordChangeDto } from './dto/password.dto';
import type { RegisterDto } from './dto/register.dto';
import type { RestoreDto } from './dto/restore.dto';

export const RESTORE_MESSAGE = 'If an account has this address, a reset token has been sent to it. It is valid for one hour.';

/** How an account comes to be: who may use it, and whether its address counts as verified (docs/api.md §3). */
export interface NewAccountOptions {
  groupid?: number;
  /** The configured administrator's: its operator wrote the address into the configuration. */
  emailVerified?: boolean;
  /** False for an address that is a placeholder (the demo account's): it stays unverified and nothing is mailed to it. */
  verificationMail?: boolean;
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly sessionRows: SessionsRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly crypto: TokenCryptoService,
    private readonly images: ImagesRepository,
    private readonly devices: DevicesRepository,
    private readonly handovers: DeviceHandoversRepository,
    private readonly jobs: JobQueue,
    private readonly tokens: TokensRepository,
    private readonly revocations: CredentialRevocations,
    private readonly failures: LoginFailures,
    private readonly verifications: EmailVerificationsRepository,
    private readonly organisations: OrganisationsRepository,
  ) {}

  async register(
    dto: RegisterDto,
    { groupid = GROUP_USER, emailVerified = false, verificationMail = true }: NewAccountOptions = {},
  ): Promise<RegisterResultWire> {
    const expires = new Date(Date.now() + this.config.accounts.expirationDays * 86_400_000);
    const created = await this.accounts.create({
      username: dto.username,
      email: dto.email,
      fullname: dto.fullname ?? '',
      passwordHash: await this.hasher.hash(dto.password),
      groupid,
      maxDevices: this.config.accounts.maxDevices,
      expiresOn: formatDate(expires),
      emailVerified,
    });
    if (!created.ok) {
      throw created.conflict === 'username'
        ? ApiException.of('USERNAME_TAKEN', 'this username is taken', 'username')
        : ApiException.of('EMAIL_TAKEN', 'an account with this e-mail address exists', 'email');
    }
    if (!emailVerified && verificationMail) {
      // The account exists whatever happens here; a mail not queued is asked for again with POST /user/email/verify.
      await this.jobs
        .enqueue('auth.email-verification', { accountId: created.account.id })
        .catch((error: unknown) => this.logger.warn(`verification mail of account ${created.account.id} not queued: ${(error as Error).message}`));
    }
    return { id: created.account.id };
  }

  /**
   * Confirms an address by the token mailed to it (docs/api.md §3). When it replaced a verified
   * address, that address is told (a change its owner did not make is then noticed there).
   */
  async verifyEmail(token: string): Promise<EmailVerifiedWire> {
    const outcome = await this.verifications.confirm(this.crypto.digest(token));
    switch (outcome.kind) {
      case 'invalid':
        throw ApiException.of('INVALID_VERIFICATION_TOKEN', 'the verification token is unknown, expired or replaced by a newer one', 'token');
      case 'taken':
        throw ApiException.of('EMAIL_TAKEN', 'another account has taken this e-mail address meanwhile', 'token');
      case 'ok':
        break;
    }
    if (outcome.replaced?.verified) {
      const account = await this.accounts.findById(outcome.accountId);
      await this.jobs
        .enqueue('mail.send', {
          to: outcome.replaced.email,
          subject: 'The e-mail address of your account changed',
          text:
            `Hello ${account?.username ?? ''},\n\nthe address of your Device Telemetry Service account is now ${outcome.email}: ` +
            `its mail, password resets included, goes there from now on.\nIf you did not make this change, reset your password ` +
            `from the new address or ask the service's operator for help.\n`,
        })
        .catch((error: unknown) => this.logger.warn(`notice of an address change not queued: ${(error as Error).message}`));
    }
    return { email: outcome.email, email_verified: true };
  }

  /** Creates the configured administrator unless an account of that name exists (docs/api.md §10). */
  async ensureAdmin(): Promise<void> {
    const admin = this.config.admin;
    if (!admin || (await this.accounts.findByLogin(admin.username))) return;
    try {
      await this.register(
        { username: admin.username, email: admin.email, password: admin.password.reveal(), fullname: 'Administrator' },
        { groupid: GROUP_ADMIN, emailVerified: true },
      );
      this.logger.log(`administrator account "${admin.username}" created`);
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (!(error instanceof ApiException)) throw error;
    }
  }

  /** Deletes the caller's own account and its devices; its sessions end (the caller's cookie is the controller's to clear). */
  async deleteAccount(principal: AuthPrincipal, password: string): Promise<{ id: number; deleted: true }> {
    await this.requirePassword(principal.accountId, password, 'password');
    await this.removeAccount(principal.accountId, null);
    return { id: principal.accountId, deleted: true };
  }

  /**
   * Deletes an account and everything it owns (the caller checked who may). With `handTo`, its
   * devices go to that account first, within its device limit or not at all (DEVICE_LIMIT_REACHED,
   * nothing changed); without, they are deleted with it. Answers how many went each way.
   */
  async removeAccount(accountId: number, handTo: { accountId: number; field: string } | null): Promise<{ deleted: number; handedOver: number }> {
    if (handTo) {
      const { needed, room } = await this.handovers.room(accountId, handTo.accountId);
      if (needed > room) throw this.noRoom(needed, room, handTo.field);
    }
    // Its memberships end before anything else goes (an organisation it alone owns stops the
    // deletion), under the organisations' locks: co-owners deleting their accounts at once leave
    // one owner at least. Should the hand-over below then fail, the memberships stay ended.
    const orphans = await this.organisations.leaveAllUnlessSoleOwner(accountId);
    if (orphans.length > 0) {
      throw ApiException.of('LAST_OWNER', `the account is the only owner of ${orphans.join(', ')}: make another member owner, or delete it, first`);
    }
    // Nothing of the account works from here on, on any instance: a request in flight cannot add a
    // device or a token while its things are moved and deleted.
    await this.accounts.adminUpdate(accountId, { active: 0 });
    await this.activeChanged(accountId, 0);
    let handedOver = 0;
    if (handTo) {
      const moved = await this.handovers.transferAll(accountId, handTo.accountId);
      if (!moved.ok) {
        // The receiver filled up since the check above: the account is left as it was, bar its sessions.
        await this.accounts.adminUpdate(accountId, { active: 1 });
        await this.activeChanged(accountId, 1);
        throw this.noRoom(moved.needed, moved.room, handTo.field);
      }
      handedOver = moved.moved;
      // A codec of the deleted account's fell back to the default decoder: the history is decoded again.
      await this.jobs.enqueueMany(
        'device.redecode',
        moved.decoderChanged.map(({ deviceUid, decoderRef }) => ({ deviceUid, decoderRef })),
      );
    }
    // Image rows go by cascade; bytes kept outside the database are removed by the worker.
    const images = await this.images.retire({ accountId });
    // Device rows go by cascade; their uplinks and rollups (no cascade: they are partitioned) by the purge.
    const devices = await this.devices.ownedUids(accountId);
    await this.accounts.delete(accountId);
    await this.jobs.enqueueMany(
      'image.purge',
      images.map((imageUid) => ({ imageUid })),
    );
    await this.jobs.enqueueMany(
      'device.purge',
      devices.map((deviceUid) => ({ deviceUid })),
    );
    await this.revocations.announce(accountId);
    return { deleted: devices.length, handedOver };
  }

  private noRoom(needed: number, room: number, field: string): ApiException {
    return ApiException.of(
      'DEVICE_LIMIT_REACHED',
      `the receiving account has room for ${room} more devices, this account has ${needed}: raise its limit first`,
      field,
    );
  }

  /**
   * The account was disabled or enabled (its row says so already): every instance forgets the
   * credentials of it that it has checked, so that its API tokens are checked again, against the
   * account's state, at their next use; disabled, every session of it ends.
   */
  async activeChanged(accountId: number, active: 0 | 1): Promise<void> {
    // Redis-held sessions are not removed by a cascade or a flag: ended here.
    if (active === 0) await this.sessions.endAllForAccount(accountId, null);
    await this.revocations.announce(accountId);
  }

  /**
   * Starts a session; `cookie` is what the session cookie is to be set to. `presented`: the session
   * cookie the request came with, if any; `client`: where the request came from (kept with the session).
   */
  async login(
    dto: LoginDto,
    presented: string | null,
    client: SessionClient,
  ): Promise<{ state: AuthStateWire; cookie: SessionCookie; account: { id: number; username: string } }> {
    const account = await this.verified(dto);
    if (account === 'disabled') throw ApiException.of('ACCOUNT_DISABLED', 'this account is disabled: ask an administrator of the service');
    if (!account) throw ApiException.of('INVALID_CREDENTIALS', 'unknown username or wrong password');
    return {
      state: { authenticated: true },
      cookie: await this.startSession(account.id, presented, client),
      account: { id: account.id, username: account.username },
    };
  }

  /** A session for an account whose sign-in succeeded (a password, or an OpenID provider's answer). */
  async startSession(accountId: number, presented: string | null, client: SessionClient): Promise<SessionCookie> {
    // A new session id at every sign-in: a planted cookie cannot become an authenticated session.
    await this.sessions.end(this.sessions.digestOf(presented));
    const { cookie } = await this.sessions.start(accountId, client);
    await this.accounts.recordLogin(accountId);
    return cookie;
  }

  /** Ends the caller's session (the one it authenticated with, else the one its cookie names); the controller clears the cookie. */
  async logout(principal: AuthPrincipal | undefined, presented: string | null): Promise<AuthStateWire> {
    await this.sessions.end(principal?.sessionDigest ?? this.sessions.digestOf(presented));
    if (principal) await this.revocations.announce(principal.accountId);
    return { authenticated: false };
  }

  async check(dto: LoginDto): Promise<CredentialCheckWire> {
    const account = await this.verified(dto);
    return { valid: account !== null && account !== 'disabled' };
  }

  /**
   * The account these credentials open; `disabled` when they are right for an account an
   * administrator disabled (told only to whoever knows the password); null otherwise. Refused with
   * 429 while the submitted name has used up its failures from any address (LoginFailures); a
   * failure is counted. The hash is verified even for an unknown user, so both answers take as long.
   */
  private async verified(dto: LoginDto) {
    await this.failures.check(dto.username);
    const account = await this.accounts.findByLogin(dto.username);
    const valid = await this.hasher.verify(account?.passwordHash ?? null, dto.password);
    if (account && valid) return account.active === 1 ? account : ('disabled' as const);
    await this.failures.failed(dto.username);
    return null;
  }

  /**
   * Step 1: the same answer, and the same work, whether or not the address is known (no account
   * enumeration, by content or by time): the request only enqueues `auth.password-reset`, whose
   * processor looks the address up, issues the account's one live reset token and mails it.
   */
  async requestReset(email: string): Promise<void> {
    await this.jobs.enqueue('auth.password-reset', { email });
  }

  /** Step 2: consumes the token, sets the password and ends every session of the account. */
  async completeReset(token: string, password: string): Promise<void> {
    const hash = await this.hasher.hash(password);
    const accountId = await this.accounts.transaction(async (m) => {
      const id = await this.resets.consume(this.crypto.digest(token), m);
      if (id === null) throw ApiException.of('INVALID_RESET_TOKEN', 'the reset token is unknown, used or expired', 'token');
      await this.accounts.updatePassword(id, hash, m);
      await this.sessionRows.deleteAllForAccount(id, null, m);
      // Whoever had the account's password may have made tokens with it: a reset ends them all.
      await this.tokens.deleteAllForAccount(id, m);
      return id;
    });
    await this.sessions.endAllForAccount(accountId, null);
    await this.revocations.announce(accountId);
  }

  async restore(dto: RestoreDto): Promise<void> {
    if (dto.token !== undefined) {
      if (dto.email !== undefined) throw ApiException.validation('email', 'send either email, or token and password');
      return this.completeReset(dto.token, dto.password!);
    }
    if (dto.password !== undefined) throw ApiException.validation('password', 'password goes with token, not with email');
    return this.requestReset(dto.email!);
  }

  async changePassword(principal: AuthPrincipal, dto: PasswordChangeDto): Promise<void> {
    await this.requirePassword(principal.accountId, dto.current_password, 'current_password');
    await this.accounts.updatePassword(principal.accountId, await this.hasher.hash(dto.new_password));
    // Every other session ends; the caller's own (if it is one) stays signed in. API tokens stay
    // (README, "Credentials"): a reset is what ends them.
    await this.sessions.endAllForAccount(principal.accountId, principal.sessionDigest);
    await this.revocations.announce(principal.accountId);
  }

  private async requirePassword(accountId: number, password: string, field: string): Promise<void> {
    const account = await this.accounts.findById(accountId);
    if (!account || !(await this.hasher.verify(account.passwordHash, password))) throw ApiException.of('WRONG_PASSWORD', 'the password is wrong', field);
  }
}
