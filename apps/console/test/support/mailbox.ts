import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  subject: string;
  /** The body, transfer encoding undone. */
  text: string;
}

function decode(raw: string): Mail['text'] {
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

/** A real SMTP server on loopback keeping what the service mails (the verification links the console is opened with). */
export async function startMailbox() {
  const mails: Mail[] = [];
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
        const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: /^subject:\s*(.*)$/im.exec(head)?.[1] ?? '',
          text: decode(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    /** Polls until the `count`-th mail to this address with this subject has come (the worker sends it from its queue). */
    async waitFor(to: string, subject: string, count = 1, timeoutMs = 15_000): Promise<Mail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.filter((m) => m.to.includes(to.toLowerCase()) && m.subject === subject);
        if (found.length >= count) return found[count - 1]!;
        if (Date.now() > deadline) throw new Error(`${count} mail(s) "${subject}" to ${to} not there within ${timeoutMs} ms (${found.length} came)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link a verification mail gives, as the mail gives it. */
export function verificationLink(mail: Mail): string {
  const link = /https?:\/\/\S+\/console\/verify-email#token=[0-9a-f]{64}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no verification link in the mail: ${mail.text}`);
  return link;
}
