import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config';

const SECRETS = {
  INGEST_SECRET: 'ingest-secret-0123456789',
  TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
  SESSION_SECRET: 's'.repeat(40),
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dts-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('needs no settings in embedded mode, generating secrets once and keeping them under DATA_DIR', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.database.url).toBeNull();
    expect(first.port).toBe(3000);
    expect(first.worker.inProcess).toBe(true);
    expect(first.secrets.tokenEncryptionKey.reveal()).toMatch(/^[0-9a-f]{64}$/);
    expect((statSync(join(dataDir, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.secrets.tokenEncryptionKey.reveal()).toBe(first.secrets.tokenEncryptionKey.reveal());
    expect(second.secrets.session.reveal()).toBe(first.secrets.session.reveal());
  });

  it('is frozen, and its secrets never print', () => {
    const config = loadConfig({ DATA_DIR: dataDir, ...SECRETS });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.database)).toBe(true);
    expect(JSON.stringify(config)).not.toContain(SECRETS.SESSION_SECRET);
    expect(String(config.secrets.session)).toBe('[secret]');
  });

  it('names each bad setting on a line of its own', () => {
    const lines = problems({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', DB_POOL_SIZE: '1' });
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PORT: /), expect.stringMatching(/^DATABASE_URL: /), expect.stringMatching(/^LOG_LEVEL: /), expect.stringMatching(/^DB_POOL_SIZE: /)]),
    );
  });

  it('requires the secrets with a real database, and never echoes a secret value', () => {
    const lines = problems({ DATABASE_URL: 'postgres://x@localhost/db', TOKEN_ENCRYPTION_KEY: 'short-and-secret' });
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^INGEST_SECRET: required/), expect.stringMatching(/^SESSION_SECRET: required/), expect.stringMatching(/^TOKEN_ENCRYPTION_KEY: must be 64/)]));
    expect(lines.join('\n')).not.toContain('short-and-secret');
  });

  it('refuses the embedded database in production', () => {
    expect(problems({ NODE_ENV: 'production', ...SECRETS })).toEqual(expect.arrayContaining([expect.stringMatching(/^DATABASE_URL: required when NODE_ENV=production/)]));
  });

  it('wants ADMIN_USERNAME and ADMIN_PASSWORD together', () => {
    expect(problems({ DATA_DIR: dataDir, ADMIN_USERNAME: 'root' })).toEqual([expect.stringMatching(/ADMIN_USERNAME and ADMIN_PASSWORD/)]);
    const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'long enough password' });
    expect(config.admin?.username).toBe('root');
    expect(config.admin?.password.reveal()).toBe('long enough password');
  });

  it('reads booleans and numbers from their text forms', () => {
    const config = loadConfig({ DATA_DIR: dataDir, DEMO: '1', WORKER_IN_PROCESS: 'false', PORT: '8080', PUBLIC_BASE_URL: 'https://api.example.org/' });
    expect(config.demo).toBe(true);
    expect(config.worker.inProcess).toBe(false);
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('https://api.example.org');
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toHaveProperty('SESSION_SECRET');
  });
});
