import { Logger } from '@nestjs/common';
import type { AppConfig } from '@dts/platform';
import { MailTransport } from './mail-transport';

const mail = { to: 'ann@example.org', subject: 'Password reset', text: 'Your reset token: 0123456789abcdef' };
const transport = (env: AppConfig['env']) => new MailTransport({ env, mail: { smtpUrl: null, from: 'x <x@localhost>' } } as unknown as AppConfig);

describe('MailTransport without SMTP_URL', () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    const keep = (message: unknown) => void lines.push(String(message));
    jest.spyOn(Logger.prototype, 'log').mockImplementation(keep);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(keep);
  });
  afterEach(() => jest.restoreAllMocks());

  it('writes the whole mail to the log in development, so that a reset can be followed', async () => {
    await transport('development').send(mail);
    expect(lines.join('\n')).toContain('0123456789abcdef');
  });

  it('never writes the text (a reset token) to the log in production', async () => {
    await transport('production').send(mail);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('not sent');
    expect(lines[0]).not.toContain('0123456789abcdef');
  });
});
