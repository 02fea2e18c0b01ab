import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { createTransport, type Transporter } from 'nodemailer';

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
  private readonly smtp: Transporter | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.smtp = config.mail.smtpUrl ? createTransport(config.mail.smtpUrl.reveal()) : null;
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (!this.smtp && this.config.env === 'production') {
      this.logger.warn(`mail to ${mail.to} not sent (no SMTP_URL set; its text is withheld from the log in production): ${mail.subject}`);
      return;
    }
    if (!this.smtp) {
      this.logger.log(`mail to ${mail.to} (no SMTP_URL set, logged instead): ${mail.subject}\n${mail.text}`);
      return;
    }
    await this.smtp.sendMail({ from: this.config.mail.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.smtp?.close();
  }
}
