import { Injectable } from '@nestjs/common';
import { LiveBus } from '@dts/persistence';
import { CredentialCache } from './credential-cache';

/**
 * Says, on the live bus, that a credential of an account ended, so that every instance drops the
 * account's cached credentials (CredentialCache) and re-checks the streams it holds open for the
 * account (LiveStreamsService). Call after the change is stored: a re-check that runs first would
 * find the credential still valid. Resolves once this process has heard its own notice back, i.e.
 * once every instance has been sent it: the caller's answer (204, 200) comes after that, so that
 * the next request, wherever it lands, finds the credential gone.
 */
@Injectable()
export class CredentialRevocations {
  constructor(
    private readonly bus: LiveBus,
    private readonly cache: CredentialCache,
  ) {}

  async announce(accountId: number): Promise<void> {
    this.cache.forget(accountId);
    await this.bus.publish([{ kind: 'credentials', account: accountId }], { heard: true });
    // Again: a look-up of this process may have read the old rows while the notice travelled.
    this.cache.forget(accountId);
  }
}
