import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AccountsRepository, TokensRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, TokenCryptoService } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { AuthService } from '../auth/auth.service';
import { TokensService } from '../tokens/tokens.service';
import { DemoContentService, type DemoSeedResult } from './demo-content.service';
import { DEMO_DEVICES } from '@dts/demo';
import { DemoLiveService } from './demo-live.service';

export const DEMO_USERNAME = 'demo';
const DEMO_TOKEN_NAME = 'demo';

/** What a DEMO=1 start did and printed. */
export interface DemoSummary {
  username: string;
  /** Only on the start that created the account: it is random and never stored in clear. */
  password: string | null;
  token: string;
  /** Ready-to-paste commands with the token and the demo EUIs filled in. */
  curl: string[];
  result: DemoSeedResult;
}

/**
 * DEMO=1: makes sure the demo account exists with its devices and their history, and prints how
 * to use it. Everything is created once: later starts print the same login and a working token,
 * and add nothing.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('demo');
  /** The last start's summary (tests read it; people read the printout). */
  summary: DemoSummary | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokensService,
    private readonly tokenRows: TokensRepository,
    private readonly crypto: TokenCryptoService,
    private readonly content: DemoContentService,
    private readonly live: DemoLiveService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demo) return;
    const began = Date.now();
    const { accountId, password } = await this.account();
    const session = this.principal(accountId, { via: 'session', tokenType: null, tokenUid: null });
    const token = await this.token(session);
    // Uplinks name the token they came with, as a network's delivery with that token would.
    const result = await this.content.seed(this.principal(accountId, { via: 'token', tokenType: 'app', tokenUid: token.uid }));
    const curl = this.examples(token.value);
    // From now on the demo devices report and take commands as long as the service runs.
    this.live.start(this.principal(accountId, { via: 'token', tokenType: 'app', tokenUid: token.uid }));
    this.summary = { username: DEMO_USERNAME, password, token: token.value, curl, result };
    process.stdout.write(
      [
        '',
        'Demo account ready:',
        `  username  ${DEMO_USERNAME}`,
        `  password  ${password ?? '(set when the demo account was first created; printed then)'}`,
        `  token     ${token.value}`,
        `  devices   ${Object.values(DEMO_DEVICES)
          .map((d) => `${d.eui} ${d.label}`)
          .join('\n            ')}`,
        `  console   ${this.config.publicBaseUrl}/console/ (the trackers, weather stations and commands update live)`,
        '  try:',
        ...curl.map((c) => `    ${c}`),
        '',
      ].join('\n'),
    );
    const seeded =
      result.seeded.length > 0
        ? `seeded ${result.seeded.length} devices, ${result.uplinks} uplinks, ${result.images} photos, ${result.commands} commands`
        : 'already seeded';
    this.logger.log(`demo account ready: ${seeded} in ${Date.now() - began} ms`);
  }

  private async account(): Promise<{ accountId: number; password: string | null }> {
    const existing = await this.accounts.findByLogin(DEMO_USERNAME);
    if (existing) return { accountId: existing.id, password: null };
    const password = `demo-${randomBytes(6).toString('hex')}`;
    try {
      // demo@example.org reaches no one: it stays unverified, and no verification mail is sent to it.
      await this.auth.register({ username: DEMO_USERNAME, email: 'demo@example.org', password, fullname: 'Demo Account' }, { verificationMail: false });
    } catch (error) {
      // Another instance starting with DEMO=1 at the same moment created it: use that one.
      if (!(error instanceof ApiException) || error.entries[0]?.code !== 'USERNAME_TAKEN') throw error;
      return { accountId: (await this.accounts.findByLogin(DEMO_USERNAME))!.id, password: null };
    }
    return { accountId: (await this.accounts.findByLogin(DEMO_USERNAME))!.id, password };
  }

  private principal(accountId: number, credential: Pick<AuthPrincipal, 'via' | 'tokenType' | 'tokenUid'>): AuthPrincipal {
    return {
      accountId,
      username: DEMO_USERNAME,
      userId: accountId,
      organisation: null,
      role: 'owner',
      isAdmin: false,
      ...credential,
      sessionDigest: null,
      sessionExpiresAt: null,
      sessionCreatedAt: null,
      sessionLastSeenAt: null,
      tokenUntil: null,
      rights: null,
    };
  }

  private async token(session: AuthPrincipal): Promise<{ uid: number; value: string }> {
    const existing = (await this.tokenRows.listActive(session.accountId)).find((t) => t.name === DEMO_TOKEN_NAME);
    if (existing) return { uid: existing.uid, value: this.crypto.decrypt(existing.valueEncrypted) };
    const uid = await this.tokens.create(session, { type: 'API', name: DEMO_TOKEN_NAME });
    const listed = (await this.tokens.list(session)).find((t) => t.uid === uid);
    return { uid, value: listed!.hash };
  }

  private examples(token: string): string[] {
    const base = this.config.publicBaseUrl;
    const get = (path: string) => `curl -s -H "Authorization: Bearer ${token}" "${base}${path}"`;
    return [
      get('/user/device/meta/all'),
      get(`/user/device/data/${DEMO_DEVICES.patrolBike.eui}?filter=LAT,LON&order=desc&limit=3`),
      get(`/user/device/data/${DEMO_DEVICES.meadow.eui}?filter=temperature,humidity&order=desc&limit=4`),
      get(`/user/device/image/${DEMO_DEVICES.cameraTrap.eui}`),
    ];
  }
}
