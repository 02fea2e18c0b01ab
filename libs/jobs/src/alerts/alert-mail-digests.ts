import { Injectable } from '@nestjs/common';
import { alertDigestMail } from '@dts/domain';
import { AlertMailsRepository, hourWindowEnd } from '@dts/persistence';
import { MailTransport } from '../mail/mail-transport';

/**
 * How long a worker holds a digest it is sending before another may take it over (it died): longer
 * than a hand-off to SMTP can take (nodemailer gives up on a silent socket after ten minutes), so
 * that a slow send is not sent twice.
 */
const DIGEST_LEASE_MS = 15 * 60_000;
/** How long after an hour ends its digests wait, so that a decision still committing at the hour's end is in them. */
const DIGEST_GRACE_MS = 60_000;

/**
 * Sends the digests of alert mails held over the hourly limits (docs/api.md §19): one mail per
 * recipient and hour, once the hour has ended, listing what was held. Any number of workers may
 * run it at once: each digest is claimed, and each held mail joins one digest.
 */
@Injectable()
export class AlertMailDigests {
  constructor(
    private readonly mails: AlertMailsRepository,
    private readonly transport: MailTransport,
  ) {}

  /** Sends every digest due at `now`; resolves with how many went. A failed hand-off stops the run: its lease ends and a later run sends it. */
  async sendDue(now: Date = new Date()): Promise<number> {
    let sent = 0;
    for (;;) {
      const digest = await this.mails.claimDigest(now, DIGEST_LEASE_MS, DIGEST_GRACE_MS);
      if (!digest) return sent;
      const items = await this.mails.digestItems(digest.id);
      if (items.length > 0) {
        await this.transport.send({ to: digest.recipient, ...alertDigestMail(digest.windowStart, hourWindowEnd(digest.windowStart), items) });
        sent++;
      }
      await this.mails.digestSent(digest, items.length);
    }
  }
}
