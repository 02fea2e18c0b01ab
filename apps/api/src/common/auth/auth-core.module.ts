import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, REDIS_CLIENT, type RedisClient } from '@dts/platform';
import { SessionsRepository } from '@dts/persistence';
import { Authenticator } from './authenticator.service';
import { AuthGuard } from './auth.guard';
import { CredentialCache } from './credential-cache';
import { CredentialRevocations } from './credential-revocations';
import { PasswordHasher } from './password-hasher.service';
import { PgSessionStore } from './pg-session.store';
import { RedisSessionStore } from './redis-session.store';
import { SessionCookies } from './session-cookies';
import { SessionStore } from './session-store';
import { SessionService } from './session.service';

/** Credentials, sessions and the auth guard's collaborators, shared by every resource module. */
@Global()
@Module({
  providers: [
    PasswordHasher,
    SessionService,
    SessionCookies,
    Authenticator,
    AuthGuard,
    CredentialCache,
    CredentialRevocations,
    {
      provide: SessionStore,
      inject: [APP_CONFIG, REDIS_CLIENT, SessionsRepository],
      useFactory: (config: AppConfig, redis: RedisClient | null, rows: SessionsRepository) =>
        redis ? new RedisSessionStore(redis, config.redis.prefix) : new PgSessionStore(rows),
    },
  ],
  exports: [PasswordHasher, SessionService, SessionCookies, Authenticator, AuthGuard, SessionStore, CredentialRevocations],
})
export class AuthCoreModule {}
