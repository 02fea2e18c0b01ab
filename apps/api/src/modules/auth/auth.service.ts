import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AuthStateWire, type CredentialCheckWire, type EchoWire, formatDate, GROUP_ADMIN, GROUP_USER, type RegisterResultWire } from '@dts/domain';
import { AccountsRepository, ImagesRepository, PasswordResetsRepository, SessionsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, TokenCryptoService } from '@dts/platform';
import type { Request, Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { PasswordHasher } from '../../common/auth/password-hasher.service';
import { SessionService } from '../../common/auth/session.service';
import { ApiException } from '../../common/http/api.exception';
import type { LoginDto } from './dto/login.dto';
import type { PasswordChangeDto } from './dto/password.dto';
import type { RegisterDto } from './dto/register.dto';
import type { RestoreDto } from './dto/restore.dto';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const RESTORE_MESSAGE = 'If an account has this address, a reset token has been sent to it. It is valid for one hour.';

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
    private readonly jobs: JobQueue,
  ) {}

  async register(dto: RegisterDto, groupid = GROUP_USER): Promise<RegisterResultWire> {
    const expires = new Date(Date.now() + this.config.accounts.expirationDays * 86_400_000);
    const created = await this.accounts.create({
      username: dto.username,
      email: dto.email,
      fullname: dto.fullname ?? '',
      passwordHash: await this.hasher.hash(dto.password),
      groupid,
      maxDevices: this.config.accounts.maxDevices,
      expiresOn: formatDate(expires),
    });
    if (!created.ok) {
      throw created.conflict === 'username'
        ? ApiException.of('USERNAME_TAKEN', 'this username is taken', 'username')
        : ApiException.of('EMAIL_TAKEN', 'an account with this e-mail address exists', 'email');
    }
    return { id: created.account.id };
  }

  /** Creates the configured administrator unless an account of that name exists (CONTRACT §10). */
  async ensureAdmin(): Promise<void> {
    const admin = this.config.admin;
    if (!admin || (await this.accounts.findByLogin(admin.username))) return;
    try {
      await this.register({ username: admin.username, email: admin.email, password: admin.password.reveal(), fullname: 'Administrator' }, GROUP_ADMIN);
      this.logger.log(`administrator account "${admin.username}" created`);
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (!(error instanceof ApiException)) throw error;
    }
  }

  async deleteAccount(principal: AuthPrincipal, password: string, res: Response): Promise<{ id: number; deleted: true }> {
    await this.requirePassword(principal.accountId, password, 'password');
    // Redis-held sessions are not removed by the cascade: end them first.
    await this.sessions.endAllForAccount(principal.accountId, null);
    // Image rows go by cascade; bytes kept outside the database are removed by the worker.
    const images = await this.images.retire({ accountId: principal.accountId });
    await this.accounts.delete(principal.accountId);
    await this.jobs.enqueueMany('image.purge', images.map((imageUid) => ({ imageUid })));
    await this.sessions.end(res, null);
    return { id: principal.accountId, deleted: true };
  }

  async login(req: Request, res: Response, dto: LoginDto): Promise<AuthStateWire> {
    const account = await this.accounts.findByLogin(dto.username);
    // The hash is verified even for an unknown user, so both answers take as long.
    const valid = await this.hasher.verify(account?.passwordHash ?? null, dto.password);
    if (!account || !valid || account.active !== 1) throw ApiException.of('INVALID_CREDENTIALS', 'unknown username or wrong password');
    // A new session id at every login: a planted cookie cannot become an authenticated session.
    const previous = this.sessions.digestOf(this.sessions.readCookie(req));
    if (previous) await this.sessions.forget(previous);
    await this.sessions.start(req, res, account.id);
    await this.accounts.recordLogin(account.id);
    return { authenticated: true };
  }

  async logout(req: Request, res: Response): Promise<AuthStateWire> {
    await this.sessions.end(res, req.auth?.sessionDigest ?? this.sessions.digestOf(this.sessions.readCookie(req)));
    return { authenticated: false };
  }

  async check(dto: LoginDto): Promise<CredentialCheckWire> {
    const account = await this.accounts.findByLogin(dto.username);
    const valid = await this.hasher.verify(account?.passwordHash ?? null, dto.password);
    return { valid: Boolean(account && valid && account.active === 1) };
  }

  echo(req: Request): EchoWire {
    return {
      method: req.method,
      path: req.path,
      query: req.query as Record<string, unknown>,
      ip: req.ip ?? null,
      user_agent: req.headers['user-agent'] ?? null,
      authenticated: Boolean(req.auth),
    };
  }

  /** Step 1: the same answer whether or not the address is known (no account enumeration). */
  async requestReset(email: string): Promise<void> {
    const account = await this.accounts.findByLogin(email);
    if (!account || account.emailKey !== email.toLowerCase()) return;
    const token = this.crypto.generate();
    await this.resets.create(this.crypto.digest(token), account.id, new Date(Date.now() + RESET_TOKEN_TTL_MS));
    await this.jobs.enqueue('mail.send', {
      to: account.email,
      subject: 'Password reset',
      text:
        `Hello ${account.username},\n\nsomeone asked to reset the password of your Device Telemetry Service account.\n` +
        `To set a new password, send POST ${this.config.publicBaseUrl}/auth/restore with the body\n` +
        `{"token": "${token}", "password": "<your new password>"}\n\nThe token is valid for one hour and can be used once. ` +
        `If you did not ask for this, ignore this message.\n`,
    });
  }

  /** Step 2: consumes the token, sets the password and ends every session of the account. */
  async completeReset(token: string, password: string): Promise<void> {
    const hash = await this.hasher.hash(password);
    const accountId = await this.accounts.transaction(async (m) => {
      const id = await this.resets.consume(this.crypto.digest(token), m);
      if (id === null) throw ApiException.of('INVALID_RESET_TOKEN', 'the reset token is unknown, used or expired', 'token');
      await this.accounts.updatePassword(id, hash, m);
      await this.sessionRows.deleteAllForAccount(id, null, m);
      return id;
    });
    await this.sessions.endAllForAccount(accountId, null);
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
    // Every other session ends; the caller's own (if it is one) stays signed in.
    await this.sessions.endAllForAccount(principal.accountId, principal.sessionDigest);
  }

  private async requirePassword(accountId: number, password: string, field: string): Promise<void> {
    const account = await this.accounts.findById(accountId);
    if (!account || !(await this.hasher.verify(account.passwordHash, password))) throw ApiException.of('WRONG_PASSWORD', 'the password is wrong', field);
  }
}
