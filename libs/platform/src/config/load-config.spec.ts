import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queuePrefix } from '../queue/queue-connection';
import { usesRedis } from './app-config';
import { ConfigError, loadConfig, placeholderReason, tileUrlProblem } from './load-config';
import { describeClusterNodes } from './redis-cluster-nodes';

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
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        expect.stringMatching(/^DATABASE_URL: /),
        expect.stringMatching(/^LOG_LEVEL: /),
        expect.stringMatching(/^DB_POOL_SIZE: /),
      ]),
    );
  });

  it('requires the secrets with a real database, and never echoes a secret value', () => {
    const lines = problems({ DATABASE_URL: 'postgres://x@localhost/db', TOKEN_ENCRYPTION_KEY: 'short-and-secret' });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^INGEST_SECRET: required/),
        expect.stringMatching(/^SESSION_SECRET: required/),
        expect.stringMatching(/^TOKEN_ENCRYPTION_KEY: must be 64/),
      ]),
    );
    expect(lines.join('\n')).not.toContain('short-and-secret');
  });

  it('refuses the embedded database in production', () => {
    expect(problems({ NODE_ENV: 'production', ...SECRETS })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^DATABASE_URL: required when NODE_ENV=production/)]),
    );
  });

  it('wants ADMIN_USERNAME and ADMIN_PASSWORD together', () => {
    expect(problems({ DATA_DIR: dataDir, ADMIN_USERNAME: 'root' })).toEqual([expect.stringMatching(/ADMIN_USERNAME and ADMIN_PASSWORD/)]);
    const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'long enough password' });
    expect(config.admin?.username).toBe('root');
    expect(config.admin?.password.reveal()).toBe('long enough password');
  });

  describe('the Redis settings', () => {
    const real = { ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db' };

    it('keeps REDIS_URL as it was: a single Redis, no cluster, queues under <prefix>:q', () => {
      const config = loadConfig({ ...real, REDIS_URL: 'redis://:pw@cache:6379/2' });
      expect(config.redis).toEqual({ url: 'redis://:pw@cache:6379/2', cluster: null, prefix: 'dts' });
      expect(usesRedis(config)).toBe(true);
      expect(queuePrefix(config)).toBe('dts:q');
      expect(usesRedis(loadConfig(real))).toBe(false);
    });

    it('reads REDIS_CLUSTER_NODES as seed nodes: host:port or URLs, IPv6, the default port, duplicates once', () => {
      const config = loadConfig({
        ...real,
        REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis://10.0.0.2:7001 ,[::1]:7002,cache-3,10.0.0.1:7000',
        REDIS_PREFIX: 'fleet',
      });
      expect(config.redis.url).toBeNull();
      expect(config.redis.cluster).toEqual({
        nodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
          { host: '::1', port: 7002 },
          { host: 'cache-3', port: 6379 },
        ],
        tls: false,
        username: null,
        password: null,
      });
      expect(usesRedis(config)).toBe(true);
      // BullMQ's keys of every queue in one hash slot: the prefix is a hash tag.
      expect(queuePrefix(config)).toBe('{fleet}:q');
      expect(describeClusterNodes(config.redis.cluster!)).toBe('10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,cache-3:6379');
    });

    it('takes credentials and TLS from rediss:// URLs, keeps the password secret and never prints it', () => {
      const password = 'p@ss:w/rd-0123456789';
      const node = (host: string) => `rediss://app:${encodeURIComponent(password)}@${host}:6380`;
      const config = loadConfig({ ...real, REDIS_CLUSTER_NODES: [node('a.example.org'), node('b.example.org')].join(',') });
      expect(config.redis.cluster).toMatchObject({
        tls: true,
        username: 'app',
        nodes: [
          { host: 'a.example.org', port: 6380 },
          { host: 'b.example.org', port: 6380 },
        ],
      });
      expect(config.redis.cluster!.password!.reveal()).toBe(password);
      expect(JSON.stringify(config)).not.toContain(encodeURIComponent(password));
      expect(JSON.stringify(config)).not.toContain(password);
    });

    it('refuses REDIS_URL and REDIS_CLUSTER_NODES together with one line naming the setting', () => {
      expect(problems({ ...real, REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'a:7000,b:7001' })).toEqual([
        'REDIS_CLUSTER_NODES: set REDIS_URL (a single Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
      ]);
      // The file form of either counts the same.
      const file = join(dataDir, 'redis-url');
      writeFileSync(file, 'redis://cache:6379\n');
      expect(problems({ ...real, REDIS_URL_FILE: file, REDIS_CLUSTER_NODES: 'a:7000' })).toEqual([
        'REDIS_CLUSTER_NODES: set REDIS_URL (a single Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
      ]);
    });

    it.each([
      ['', null],
      [' , ', 'REDIS_CLUSTER_NODES: names no node; give host:port,host:port,… (or redis:// / rediss:// URLs)'],
      ['a:7000,http://b:7001', 'REDIS_CLUSTER_NODES: entry 2 is a http:// URL; give host:port or a redis:// or rediss:// URL'],
      ['a:70000', 'REDIS_CLUSTER_NODES: entry 1 is not host:port or a redis:// or rediss:// URL'],
      ['redis://a:7000/3', 'REDIS_CLUSTER_NODES: entry 1 names a database; a Redis Cluster has database 0 only'],
      ['redis://a:7000?family=6', 'REDIS_CLUSTER_NODES: entry 1 has URL options (?… or #…); a cluster node takes none'],
      ['rediss://a:7000,redis://b:7001', 'REDIS_CLUSTER_NODES: entry 2 is redis:// but entry 1 is rediss://; every node is reached the same way'],
      [
        'redis://:secret-one@a:7000,redis://:secret-two@b:7001',
        'REDIS_CLUSTER_NODES: entry 2 has other credentials than entry 1; every node of a cluster takes the same user and password',
      ],
    ])('refuses %j with one line that never echoes the value', (value, problem) => {
      const lines = problems({ ...real, REDIS_CLUSTER_NODES: value });
      expect(lines).toEqual(problem ? [problem] : []);
      expect(lines.join('\n')).not.toMatch(/secret-(one|two)/);
    });

    it('reads REDIS_CLUSTER_NODES from REDIS_CLUSTER_NODES_FILE (it may hold a password)', () => {
      const file = join(dataDir, 'cluster');
      writeFileSync(file, 'redis://:from-a-file-0123@a:7000,redis://:from-a-file-0123@b:7001\n');
      const config = loadConfig({ ...real, REDIS_CLUSTER_NODES_FILE: file });
      expect(config.redis.cluster?.password?.reveal()).toBe('from-a-file-0123');
      expect(config.redis.cluster?.nodes).toHaveLength(2);
    });
  });

  it('reads booleans and numbers from their text forms', () => {
    const config = loadConfig({ DATA_DIR: dataDir, DEMO: '1', WORKER_IN_PROCESS: 'false', PORT: '8080', PUBLIC_BASE_URL: 'https://api.example.org/' });
    expect(config.demo).toBe(true);
    expect(config.worker.inProcess).toBe(false);
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('https://api.example.org');
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toHaveProperty('SESSION_SECRET');
  });

  it('reads MQTT_ALLOWED_PORTS as a list of ports, and names it when an item is not one', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).integrations.mqttAllowedPorts).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir, MQTT_ALLOWED_PORTS: ' 5432, 22,5432 ' }).integrations.mqttAllowedPorts).toEqual([5432, 22]);
    for (const bad of ['22,ssh', '0', '65536', '22;25', '-1'])
      expect({ bad, lines: problems({ DATA_DIR: dataDir, MQTT_ALLOWED_PORTS: bad }) }).toEqual({
        bad,
        lines: [expect.stringMatching(/^MQTT_ALLOWED_PORTS: /)],
      });
  });

  describe('in production', () => {
    const REAL = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://dts@db/dts',
      INGEST_SECRET: '6e1b0c9d4a7f3e2b8c5d0a1f9e7b3c4d',
      TOKEN_ENCRYPTION_KEY: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      SESSION_SECRET: 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2',
    };

    it('starts with generated secrets', () => {
      expect(problems(REAL)).toEqual([]);
    });

    it.each([
      ['TOKEN_ENCRYPTION_KEY', '0'.repeat(64), /fewer than 8 distinct characters/],
      ['TOKEN_ENCRYPTION_KEY', 'ab'.repeat(32), /fewer than 8 distinct characters/],
      ['INGEST_SECRET', 'change-me-ingest-secret-0123456789', /placeholder/],
      ['SESSION_SECRET', 'changeme-session-secret-0123456789abcdef', /placeholder/],
      ['METRICS_TOKEN', 'replace-me-with-a-metrics-token', /placeholder/],
      ['ADMIN_PASSWORD', 'example-password', /placeholder/],
    ])('refuses a placeholder %s, naming it and never echoing it', (name, value, reason) => {
      const extra: Record<string, string> = name === 'ADMIN_PASSWORD' ? { ADMIN_USERNAME: 'root' } : {};
      const lines = problems({ ...REAL, ...extra, [name]: value });
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
      expect(lines[0]).toMatch(reason);
      expect(lines.join('\n')).not.toContain(value);
    });

    it('lets development run with anything valid', () => {
      expect(problems({ DATA_DIR: dataDir, TOKEN_ENCRYPTION_KEY: '0'.repeat(64), INGEST_SECRET: 'change-me-ingest-secret' })).toEqual([]);
    });

    it('judges generated values as real', () => {
      for (let i = 0; i < 50; i++) expect(placeholderReason(randomBytes(16).toString('hex'))).toBeNull();
    });
  });

  describe('X_FILE settings (Docker and Kubernetes secrets)', () => {
    it('reads a secret from the file X_FILE names, without its trailing newline', () => {
      const file = join(dataDir, 'session');
      writeFileSync(file, 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2\n');
      const dbFile = join(dataDir, 'db-url');
      writeFileSync(dbFile, 'postgres://dts:secret@db/dts');
      const config = loadConfig({ ...SECRETS, SESSION_SECRET: undefined, SESSION_SECRET_FILE: file, DATABASE_URL_FILE: dbFile });
      expect(config.secrets.session.reveal()).toBe('c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2');
      expect(config.database.url).toBe('postgres://dts:secret@db/dts');
    });

    it('names the setting when the file cannot be read, or when both forms are set', () => {
      expect(problems({ DATA_DIR: dataDir, INGEST_SECRET_FILE: join(dataDir, 'missing') })).toEqual([
        `INGEST_SECRET_FILE: cannot read ${join(dataDir, 'missing')} (ENOENT)`,
      ]);
      const file = join(dataDir, 'ingest');
      writeFileSync(file, 'ingest-secret-0123456789');
      expect(problems({ DATA_DIR: dataDir, INGEST_SECRET: 'ingest-secret-0123456789', INGEST_SECRET_FILE: file })).toEqual([
        'INGEST_SECRET_FILE: set INGEST_SECRET or INGEST_SECRET_FILE, not both',
      ]);
    });

    it('validates what the file holds like the variable itself', () => {
      const file = join(dataDir, 'key');
      writeFileSync(file, 'not-hex');
      expect(problems({ DATA_DIR: dataDir, TOKEN_ENCRYPTION_KEY_FILE: file })).toEqual([
        expect.stringMatching(/^TOKEN_ENCRYPTION_KEY: must be 64 hexadecimal/),
      ]);
    });
  });

  it('keeps the drain grace inside the shutdown timeout', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).drainGraceMs).toBe(500);
    expect(loadConfig({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_GRACE_MS: '5000', SHUTDOWN_TIMEOUT_MS: '30000' }).drainGraceMs).toBe(5000);
    expect(problems({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_GRACE_MS: '10000' })).toEqual([expect.stringMatching(/^SHUTDOWN_DRAIN_GRACE_MS: must be less than/)]);
  });

  describe('the console’s map and source maps', () => {
    it('takes a tile server, its attribution and its deepest zoom; none draws the bundled base map', () => {
      expect(loadConfig({ DATA_DIR: dataDir }).map).toEqual({
        tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap contributors',
        maxZoom: 19,
      });
      const own = loadConfig({
        DATA_DIR: dataDir,
        MAP_TILE_URL: 'https://{s}.tiles.example.net/v1/{z}/{x}/{y}{r}.png?key=k',
        MAP_TILE_ATTRIBUTION: '© Example',
        MAP_TILE_MAX_ZOOM: '22',
      });
      expect(own.map).toEqual({ tileUrl: 'https://{s}.tiles.example.net/v1/{z}/{x}/{y}{r}.png?key=k', attribution: '© Example', maxZoom: 22 });
      expect(loadConfig({ DATA_DIR: dataDir, MAP_TILE_URL: 'none' }).map.tileUrl).toBeNull();
    });

    it('refuses at start a tile URL a browser could not use, one line naming the setting', () => {
      expect(problems({ DATA_DIR: dataDir, MAP_TILE_URL: 'ftp://tiles.example.net/{z}/{x}/{y}.png' })).toEqual([
        expect.stringMatching(/^MAP_TILE_URL: must be an http\(s\) tile URL/),
      ]);
      expect(problems({ DATA_DIR: dataDir, MAP_TILE_URL: 'https://tiles.example.net/{z}/{y}.png' })).toEqual([expect.stringMatching(/^MAP_TILE_URL: /)]);
      expect(problems({ DATA_DIR: dataDir, MAP_TILE_URL: 'https://tiles-{s}.example.net/{z}/{x}/{y}.png' })).toEqual([
        expect.stringMatching(/^MAP_TILE_URL: its host/),
      ]);
      expect(problems({ DATA_DIR: dataDir, MAP_TILE_URL: 'https://tiles.example.net/{z}/{x}/{y}/{style}.png' })).toEqual([
        expect.stringMatching(/^MAP_TILE_URL: names a placeholder/),
      ]);
      expect(problems({ DATA_DIR: dataDir, MAP_TILE_MAX_ZOOM: '30' })).toEqual([expect.stringMatching(/^MAP_TILE_MAX_ZOOM: /)]);
      expect(tileUrlProblem('https://{z}/{x}/{y}')).not.toBeNull();
      expect(tileUrlProblem('http://localhost:8080/tiles/{z}/{x}/{y}.png')).toBeNull();
    });

    it('serves the console’s source maps outside production only, unless CONSOLE_SOURCE_MAPS says', () => {
      expect(loadConfig({ DATA_DIR: dataDir }).console.sourceMaps).toBe(true);
      expect(loadConfig({ DATA_DIR: dataDir, CONSOLE_SOURCE_MAPS: 'false' }).console.sourceMaps).toBe(false);
      const production = {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://dts@db/dts',
        INGEST_SECRET: randomBytes(16).toString('hex'),
        TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        SESSION_SECRET: randomBytes(32).toString('hex'),
      };
      expect(loadConfig(production).console.sourceMaps).toBe(false);
      expect(loadConfig({ ...production, CONSOLE_SOURCE_MAPS: 'true' }).console.sourceMaps).toBe(true);
    });
  });
});
