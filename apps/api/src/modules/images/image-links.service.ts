import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a link is signed over besides its expiry: the image, and its device's link generation. */
export interface LinkedImage {
  hash: string;
  link_generation: number;
}

/**
 * Signed, time-limited links to image files: HMAC-SHA256 over the hash, the device's link
 * generation and the expiry, so a link can be handed to a browser or a colleague without
 * credentials, a changed link is refused, and a hand-over (which moves the generation on) ends
 * every link the previous owner held.
 */
@Injectable()
export class ImageLinksService {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    // A key of its own, derived from the session secret: a link signature is not a session signature.
    this.key = createHmac('sha256', config.secrets.session.reveal()).update('image-links').digest();
  }

  private sign(image: LinkedImage, expires: number): string {
    return createHmac('sha256', this.key).update(`${image.hash}.${image.link_generation}.${expires}`).digest('base64url');
  }

  url(image: LinkedImage, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.config.images.linkTtlSeconds;
    return `${this.config.publicBaseUrl}/files/image/${image.hash}?expires=${expires}&signature=${this.sign(image, expires)}`;
  }

  /** True when the signature is this service's for this image, generation and expiry, and the expiry has not passed. */
  valid(image: LinkedImage, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(image, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && expires * 1000 > Date.now();
  }
}
