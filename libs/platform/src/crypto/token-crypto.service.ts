import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets handed to clients (API tokens, session ids, reset tokens) are 32 bytes from the CSPRNG.
 * Network API keys are kept with the same cipher.
 * The database keeps their SHA-256 digest for look-up; API token values are also kept encrypted
 * with AES-256-GCM so that their owner can list them (docs/api.md §3).
 */
@Injectable()
export class TokenCryptoService {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(config.secrets.tokenEncryptionKey.reveal(), 'hex');
  }

  /** 64 lowercase hex characters. */
  generate(): string {
    return randomBytes(32).toString('hex');
  }

  digest(value: string): Buffer {
    return createHash('sha256').update(value, 'utf8').digest();
  }

  encrypt(value: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  decrypt(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Constant-time comparison of two secrets of any length. */
  equals(a: string, b: string): boolean {
    return timingSafeEqual(this.digest(a), this.digest(b));
  }
}
