import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { type JobPayloads, QUEUES } from '@dts/domain';
import { AccountsRepository, PasswordResetsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, TokenCryptoService } from '@dts/platform';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * Step 1 of a password reset, off the request path (POST /auth/restore only enqueues this, so that
 * it answers alike, in content and in time, for every address): when an account has the address,
 * its one live reset token is issued — replacing any earlier one — and mailed. A retried job issues
 * a fresh token and mails again; the earlier mail's token no longer works.
 */
@Processor(QUEUES.authPasswordReset, PROCESSOR_OPTIONS)
export class PasswordResetProcessor extends JobProcessor<'auth.password-reset'> {
  readonly job = 'auth.password-reset' as const;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly crypto: TokenCryptoService,
    private readonly jobs: JobQueue,
  ) {
    super();
  }

  protected async handle({ email }: JobPayloads['auth.password-reset']): Promise<{ issued: boolean }> {
    const account = await this.accounts.findByLogin(email);
    if (!account || account.emailKey !== email.toLowerCase()) return { issued: false };
    const token = this.crypto.generate();
    await this.resets.replace(this.crypto.digest(token), account.id, new Date(Date.now() + RESET_TOKEN_TTL_MS));
    await this.jobs.enqueue('mail.send', {
      to: account.email,
      subject: 'Password reset',
      text:
        `Hello ${account.username},\n\nsomeone asked to reset the password of your Device Telemetry Service account.\n` +
        // The token travels in the fragment: browsers never send it to the server (nor to its logs).
        `To set a new password, open ${this.config.publicBaseUrl}/console/reset-password#token=${token}\n` +
        `or send POST ${this.config.publicBaseUrl}/auth/restore with the body\n` +
        `{"token": "${token}", "password": "<your new password>"}\n\nThe token is valid for one hour and can be used once; ` +
        `a newer request replaces it. Setting the password ends every session and API token of the account. ` +
        `If you did not ask for this, ignore this message.\n`,
    });
    return { issued: true };
  }
}
