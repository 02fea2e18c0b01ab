import { loadConfig } from '../config/load-config';
import { TokenCryptoService } from './token-crypto.service';

const config = loadConfig({
  DATABASE_URL: 'postgres://x@localhost/db',
  INGEST_SECRET: 'i'.repeat(20),
  TOKEN_ENCRYPTION_KEY: '0f'.repeat(32),
  SESSION_SECRET: 's'.repeat(40),
});

describe('TokenCryptoService', () => {
  const crypto = new TokenCryptoService(config);

  it('makes 64 lowercase hex characters, different each time', () => {
    const a = crypto.generate();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(crypto.generate()).not.toBe(a);
  });

  it('round-trips through AES-256-GCM with a fresh IV each time', () => {
    const value = crypto.generate();
    const one = crypto.encrypt(value);
    const two = crypto.encrypt(value);
    expect(one.equals(two)).toBe(false);
    expect(crypto.decrypt(one)).toBe(value);
    expect(one.toString('latin1')).not.toContain(value);
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = crypto.encrypt(crypto.generate());
    sealed[sealed.length - 1]! ^= 1;
    expect(() => crypto.decrypt(sealed)).toThrow();
  });

  it('digests with SHA-256 and compares in constant time', () => {
    expect(crypto.digest('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(crypto.equals('same', 'same')).toBe(true);
    expect(crypto.equals('same', 'different length')).toBe(false);
  });
});
