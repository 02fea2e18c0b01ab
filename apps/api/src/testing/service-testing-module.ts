import type { DynamicModule, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { formatDate, GROUP_ADMIN } from '@dts/domain';
import { AccountsRepository, embeddedConnectionsFor, migratedTestDatabase, type MigratedTestDatabase } from '@dts/persistence';
import { type AppConfig, loadConfig } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/http/api.exception';
import type { AuthPrincipal } from '../common/auth/auth-principal';
import { infrastructure } from '../infrastructure';
import { TEST_SECRETS } from './test-secrets';

const POOL_SIZE = 4;

export interface ServiceTestingModule {
  module: TestingModule;
  config: AppConfig;
  database: MigratedTestDatabase;
  /** A provider of the module (a service, a repository), as Nest built it. */
  get<T>(type: Type<T>): T;
  /** The database, for what a rule leaves behind that no service reads (a queued purge, a row's column). */
  sql<T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]>;
  /** A new account (unique name) and a session principal for it; `over` changes its limits. */
  account(over?: { maxDevices?: number; expiresOn?: string; isAdmin?: boolean }): Promise<AuthPrincipal>;
  /** The principal of a token of `account` (no row is made: the auth guard's work is not under test). */
  viaToken(account: AuthPrincipal, token: { type: 'master' | 'app'; uid?: number; until?: Date | null }): AuthPrincipal;
  close(): Promise<void>;
}

/**
 * Services without HTTP: a Nest testing module with the persistence, Redis/queue, config, crypto
 * and auth-core modules the application module has, on a migrated database of the file's own
 * (cloned from the template, migratedTestDatabase), and the feature modules under test. No
 * controllers are served, no guard, pipe or interceptor runs: a spec calls the service as a
 * controller would, with a principal. Environment `env` overrides the test configuration.
 */
export async function serviceTestingModule(
  features: (Type<unknown> | DynamicModule)[],
  { env = {} }: { env?: Record<string, string> } = {},
): Promise<ServiceTestingModule> {
  const database = await migratedTestDatabase('dts_svc', { maxConnections: embeddedConnectionsFor(POOL_SIZE) });
  try {
    const redisUrl = process.env.TEST_REDIS_URL || null;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      LOG_PRETTY: 'false',
      DB_POOL_SIZE: String(POOL_SIZE),
      WORKER_IN_PROCESS: 'false',
      REDIS_PREFIX: `dts-svc-${randomBytes(4).toString('hex')}`,
      ...TEST_SECRETS,
      ...(database.embedded ? {} : { DATABASE_URL: database.url }),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      ...env,
    });
    // The service's own infrastructure (infrastructure.ts), its pools on the cloned database.
    const base = infrastructure(config, { url: database.url, embedded: database.embedded });
    const module = await Test.createTestingModule({
      imports: [...base.imports, ...features],
      providers: base.providers,
    }).compile();
    await module.init();
    const ds = module.get(DataSource);
    const accounts = module.get(AccountsRepository);
    let closed = false;
    return {
      module,
      config,
      database,
      get: <T>(type: Type<T>) => module.get(type, { strict: false }),
      sql: <T>(query: string, parameters: unknown[] = []) => ds.query(query, parameters) as Promise<T[]>,
      async account(over = {}) {
        const name = `u${randomBytes(5).toString('hex')}`;
        const created = await accounts.create({
          username: name,
          email: `${name}@example.test`,
          fullname: name,
          passwordHash: 'not-a-hash: sessions are made without a password here',
          groupid: over.isAdmin ? GROUP_ADMIN : 0,
          maxDevices: over.maxDevices ?? 100,
          expiresOn: over.expiresOn ?? formatDate(new Date(Date.now() + 365 * 86_400_000)),
          emailVerified: true,
        });
        if (!created.ok) throw new Error(`account ${name}: ${created.conflict} taken`);
        return {
          accountId: created.account.id,
          username: name,
          userId: created.account.id,
          organisation: null,
          role: 'owner',
          isAdmin: over.isAdmin ?? false,
          via: 'session',
          tokenType: null,
          tokenUid: null,
          tokenUntil: null,
          rights: null,
          sessionDigest: randomBytes(32),
          sessionExpiresAt: new Date(Date.now() + 3_600_000),
          sessionCreatedAt: new Date(),
          sessionLastSeenAt: new Date(),
        };
      },
      viaToken: (account, token) => ({
        ...account,
        via: 'token',
        tokenType: token.type,
        tokenUid: token.uid ?? 0,
        tokenUntil: token.until ?? null,
        sessionDigest: null,
        sessionExpiresAt: null,
        sessionCreatedAt: null,
        sessionLastSeenAt: null,
      }),
      async close() {
        if (closed) return;
        closed = true;
        await module.close();
        await database.stop();
      },
    };
  } catch (error) {
    await database.stop();
    throw error;
  }
}

/** One entry of a refused call, as the envelope would carry it. */
export interface Refusal {
  code: string;
  message: string;
  field?: string;
}

/** What a refused call said, entry by entry (its ApiException's); fails when it succeeded or threw something else. */
export async function refusals(call: Promise<unknown>): Promise<Refusal[]> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiException)) throw error ?? new Error('expected a refusal, got success');
  return error.entries.map((e) => ({ code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) }));
}

/** The first (most often the only) entry of a refused call. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const [first] = await refusals(call);
  return first!;
}
