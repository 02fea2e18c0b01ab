import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, time-limited links to image files: HMAC-SHA256 over the hash and the expiry, so a link
 * can be handed to a browser or a colleague without credentials, and a changed link is refused.
 */
@Injectable()
export class ImageLinksService {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    // A key of its own, derived from the session secret: a link signature is not a session signature.
    this.key = createHmac('sha256', config.secrets.session.reveal()).update('image-links').digest();
  }

  private sign(hash: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${hash}.${expires}`).digest('base64url');
  }

  url(hash: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.config.images.linkTtlSeconds;
    return `${this.config.publicBaseUrl}/files/image/${hash}?expires=${expires}&signature=${this.sign(hash, expires)}`;
  }

  /** True when the signature is this service's for this hash and expiry, and the expiry has not passed. */
  valid(hash: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(hash, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && expires * 1000 > Date.now();
  }
}
