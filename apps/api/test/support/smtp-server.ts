import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from '@dts/platform';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The Subject header, encoded words decoded. */
  subject: string;
  /** The body, transfer encoding undone. */
  text: string;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`), as nodemailer writes a subject that is not ASCII. */
function decodeWords(header: string): string {
  return header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function mailSubject(raw: string): string {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return decodeWords(/^subject:\s*(.*)$/im.exec(head)?.[1] ?? '');
}

/** The token of a verification mail (its link's fragment). */
export function verificationToken(mail: ReceivedMail): string {
  const token = /#token=([0-9a-f]{64})\b/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no verification token in the mail: ${mail.text}`);
  return token;
}

/** Undoes the Content-Transfer-Encoding of a single-part mail (nodemailer picks 7bit, QP or base64). */
function mailBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** A real SMTP server on loopback that keeps every mail it is given (password resets, alerts). */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, subject: mailSubject(raw), text: mailBody(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  /** The mails to this address so far (with this subject, when given: a string it starts with, or a pattern). */
  const mailsTo = (to: string, subject?: string | RegExp): ReceivedMail[] => {
    const wanted = (m: ReceivedMail) => subject === undefined || (typeof subject === 'string' ? m.subject.startsWith(subject) : subject.test(m.subject));
    return mails.filter((m) => m.to.includes(to.toLowerCase()) && wanted(m));
  };
  return {
    port,
    mails,
    mailsTo,
    /**
     * Polls until a mail to this address (with this subject, when given) arrives (the worker sends it
     * from the queue); with `count`, until that many have.
     */
    async waitForMail(
      to: string,
      subject?: string | RegExp,
      { timeoutMs = 10_000, count = 1 }: { timeoutMs?: number; count?: number } = {},
    ): Promise<ReceivedMail> {
      return eventually(
        () => {
          const found = mailsTo(to, subject);
          if (found.length < count) throw new Error(`got ${found.length}, and ${mails.length} in all`);
          return found[count - 1]!;
        },
        { what: `${count} mail(s) to ${to}${subject ? ` (${String(subject)})` : ''}`, timeoutMs, intervalMs: 100 },
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
