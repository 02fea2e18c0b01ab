import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * SMTP when SMTP_URL is set. Without it a mail is written to the log so that a developer can follow
 * a password reset (docs/api.md §3) — but never in production, where logs travel further than mail
 * should: there only the recipient and subject are logged, with a warning that nothing was sent.
 */
@Injectable()
export class MailTransport {
  private readonly logger = new Logger('mail');
  /**
   * Made at the first mail: nodemailer costs a process about 20 MB and 80 ms at start-up, for mail
   * that most processes send rarely or never (docs/benchmarks.md, figure 15).
   */
  private smtp: Promise<Transporter> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private transporter(): Promise<Transporter> | null {
    const url = this.config.mail.smtpUrl;
    if (!url) return null;
    return (this.smtp ??= import('nodemailer').then(({ createTransport }) => createTransport(url.reveal())));
  }

  async send(mail: OutgoingMail): Promise<void> {
    const smtp = this.transporter();
    if (!smtp && this.config.env === 'production') {
      this.logger.warn(`mail to ${mail.to} not sent (no SMTP_URL set; its text is withheld from the log in production): ${mail.subject}`);
      return;
    }
    if (!smtp) {
      this.logger.log(`mail to ${mail.to} (no SMTP_URL set, logged instead): ${mail.subject}\n${mail.text}`);
      return;
    }
    await (await smtp).sendMail({ from: this.config.mail.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    void this.smtp?.then((smtp) => smtp.close()).catch(() => undefined);
  }
}
