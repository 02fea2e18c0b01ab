import { Processor } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import { EMAIL_VERIFICATION_TTL_HOURS, type JobPayloads, QUEUES } from '@dts/domain';
import { AccountsRepository, EmailVerificationsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue, TokenCryptoService } from '@dts/platform';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/**
 * Mails the account's verification token (docs/api.md §3) to the address it has to verify: the
 * pending one, else its current one while unverified. One live token per account, replacing any
 * earlier one, and at most VERIFICATION_MAILS_PER_HOUR to one address, whoever asks: the one mail
 * that goes to an address before its owner said yes, so it must not become a way to flood it. A
 * retried job issues a fresh token; the earlier mail's no longer works.
 */
@Processor(QUEUES.authEmailVerification, PROCESSOR_OPTIONS)
export class EmailVerificationProcessor extends JobProcessor<'auth.email-verification'> {
  readonly job = 'auth.email-verification' as const;
  private readonly logger = new Logger('EmailVerification');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly verifications: EmailVerificationsRepository,
    private readonly crypto: TokenCryptoService,
    private readonly jobs: JobQueue,
  ) {
    super();
  }

  protected async handle({ accountId }: JobPayloads['auth.email-verification']): Promise<{ issued: boolean }> {
    const account = await this.accounts.findById(accountId);
    const address = account ? await this.verifications.addressToVerify(accountId) : null;
    if (!account || address === null) return { issued: false };
    const token = this.crypto.generate();
    const now = new Date();
    const expires = new Date(now.getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000);
    const limit = this.config.mail.verificationsPerAddressPerHour;
    if (!(await this.verifications.issue(this.crypto.digest(token), accountId, address, expires, limit, now))) {
      this.logger.warn(`verification mail for account ${accountId} not sent: ${limit} went to its address this hour`);
      return { issued: false };
    }
    const change = address.toLowerCase() !== account.emailKey;
    const base = this.config.publicBaseUrl;
    await this.jobs.enqueue('mail.send', {
      to: address,
      subject: 'Verify your e-mail address',
      text:
        `Hello ${account.username},\n\n` +
        (change
          ? `please confirm that ${address} is to become the address of your Device Telemetry Service account. Until you do, your account keeps its current address.\n`
          : `please confirm that ${address} is the address of your Device Telemetry Service account. Until you do, no alert mail goes to it.\n`) +
        // The token travels in the fragment: browsers never send it to the server (nor to its logs).
        `To confirm, open ${base}/console/verify-email#token=${token}\n` +
        `or send POST ${base}/auth/verify with the body {"token": "${token}"}\n\n` +
        `The link is valid for ${EMAIL_VERIFICATION_TTL_HOURS} hours and can be used once; a newer verification mail replaces it. ` +
        `If you did not ask for an account or for this address, ignore this message: nothing more will be sent to you unless someone confirms it.\n`,
    });
    return { issued: true };
  }
}
