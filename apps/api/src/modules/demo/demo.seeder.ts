import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AccountsRepository, TokensRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, TokenCryptoService } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { AuthService } from '../auth/auth.service';
import { TokensService } from '../tokens/tokens.service';

export const DEMO_USERNAME = 'demo';

/**
 * DEMO=1: makes sure a demo account exists and prints how to use it. The account is created once;
 * later starts print the same login and a token that works.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('demo');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokensService,
    private readonly tokenRows: TokensRepository,
    private readonly crypto: TokenCryptoService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demo) return;
    let account = await this.accounts.findByLogin(DEMO_USERNAME);
    let password: string | null = null;
    if (!account) {
      password = `demo-${randomBytes(6).toString('hex')}`;
      await this.auth.register({ username: DEMO_USERNAME, email: 'demo@example.org', password, fullname: 'Demo Account' });
      account = (await this.accounts.findByLogin(DEMO_USERNAME))!;
    }
    const principal: AuthPrincipal = {
      accountId: account.id,
      username: account.username,
      isAdmin: false,
      via: 'session',
      tokenType: null,
      tokenUid: null,
      sessionDigest: null,
      sessionExpiresAt: null,
      sessionCreatedAt: null,
      sessionLastSeenAt: null,
    };
    const existing = (await this.tokenRows.listActive(account.id)).find((t) => t.name === 'demo');
    const value = existing ? this.crypto.decrypt(existing.valueEncrypted) : await this.createDemoToken(principal);
    const base = this.config.publicBaseUrl;
    process.stdout.write(
      [
        '',
        'Demo account ready:',
        `  username  ${DEMO_USERNAME}`,
        `  password  ${password ?? '(set when the demo account was first created; printed then)'}`,
        `  token     ${value}`,
        `  try       curl -s -H "Authorization: Bearer ${value}" ${base}/user`,
        '',
      ].join('\n'),
    );
    this.logger.log('demo account ready');
  }

  private async createDemoToken(principal: AuthPrincipal): Promise<string> {
    const uid = await this.tokens.create(principal, { type: 'API', name: 'demo' });
    const listed = (await this.tokens.list(principal)).find((t) => t.uid === uid);
    return listed!.hash;
  }
}
