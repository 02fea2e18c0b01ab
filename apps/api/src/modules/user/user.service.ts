import { Inject, Injectable } from '@nestjs/common';
import type { AccountWire, VerificationMailWire } from '@dts/domain';
import { AccountsRepository, EmailVerificationsRepository, hourWindowEnd } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { PasswordHasher } from '../../common/auth/password-hasher.service';
import { ApiException } from '../../common/http/api.exception';
import type { AccountUpdateDto } from './dto/account-update.dto';
import { toAccountWire } from './user.mapper';

@Injectable()
export class UserService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly verifications: EmailVerificationsRepository,
    private readonly hasher: PasswordHasher,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * The caller's account, with the plan (max_devices, expiration, retention) of the account the
   * request acts in: a session in an organisation is the person under the organisation's plan; an
   * organisation's key is the organisation (docs/api.md §20).
   */
  async me(principal: AuthPrincipal): Promise<AccountWire> {
    const acting = await this.accounts.findById(principal.accountId);
    const person = principal.organisation && principal.via === 'session' ? await this.accounts.findById(principal.userId) : acting;
    if (!acting || !person) throw ApiException.notFound('account');
    const plan = toAccountWire(acting, this.config.timeseries.uplinkRetentionDays);
    const wire = toAccountWire(person, this.config.timeseries.uplinkRetentionDays);
    return {
      ...wire,
      subscription: plan.subscription,
      expiration: plan.expiration,
      max_devices: plan.max_devices,
      uplink_retention_effective_days: plan.uplink_retention_effective_days,
    };
  }

  /**
   * A new address (docs/api.md §3): kept pending, and a verification mail sent to it; it replaces the
   * current address only once verified, so nothing goes to it before then and a mistyped address
   * costs nothing. The current address again withdraws a pending change; the pending one again
   * mails its verification again.
   */
  async update(principal: AuthPrincipal, dto: AccountUpdateDto): Promise<AccountWire> {
    const account = await this.accounts.findById(principal.accountId);
    if (!account || !(await this.hasher.verify(account.passwordHash, dto.current_password))) {
      throw ApiException.of('WRONG_PASSWORD', 'the password is wrong', 'current_password');
    }
    const key = dto.email.toLowerCase();
    if (key === account.emailKey) {
      await this.accounts.setPendingEmail(account.id, null);
    } else {
      if (!(await this.accounts.setPendingEmail(account.id, dto.email)))
        throw ApiException.of('EMAIL_TAKEN', 'an account with this e-mail address exists', 'email');
      await this.mailVerification(account.id, dto.email);
    }
    return this.me({ ...principal, accountId: principal.userId, organisation: null });
  }

  /** Sends the verification mail again (a new token: the earlier one stops working), to the address there is to verify. */
  async requestVerification(principal: AuthPrincipal): Promise<VerificationMailWire> {
    const to = await this.verifications.addressToVerify(principal.accountId);
    if (to === null) return { sent: false, to: null };
    await this.mailVerification(principal.accountId, to);
    return { sent: true, to };
  }

  /**
   * Refused with 429 when the hour's verification mails to the address are spent, so that the caller
   * learns it (the job checks again and counts: it is what holds when several ask at once).
   */
  private async mailVerification(accountId: number, to: string): Promise<void> {
    const now = new Date();
    const limit = this.config.mail.verificationsPerAddressPerHour;
    if ((await this.verifications.mailsThisHour(to, now)) >= limit) {
      const retryAfter = Math.max(1, Math.ceil((hourWindowEnd(now).getTime() - now.getTime()) / 1000));
      throw new ApiException([{ code: 'RATE_LIMITED', message: `${limit} verification mails went to this address this hour: try again later` }], retryAfter);
    }
    await this.jobs.enqueue('auth.email-verification', { accountId });
  }
}
