import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENVIRONMENT_NAMES } from './environment';
import { loadConfig } from './load-config';

const root = join(__dirname, '../../../..');

/** The `.env` an operator writes: every required variable of docker-compose.yml, random. */
const OPERATOR_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'a3f9c1e07b5d42e8',
  INGEST_SECRET: '6e1b0c9d4a7f3e2b8c5d0a1f9e7b3c4d',
  TOKEN_ENCRYPTION_KEY: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  SESSION_SECRET: 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2',
  METRICS_TOKEN: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
};

/** docker-compose.yml as compose reads it with OPERATOR_ENV: `${NAME:?…}` must be given, `${NAME:-x}` defaults. */
function readCompose(variables: Record<string, string> = OPERATOR_ENV): unknown {
  const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8').replace(
    /\$\{([A-Z0-9_]+)(?:(:\?|:-)([^}]*))?\}/g,
    (_all, name: string, op: string | undefined, arg: string | undefined) => {
      if (variables[name]) return variables[name];
      if (op === ':-') return arg ?? '';
      throw new Error(`${name} is required: ${arg ?? ''}`);
    },
  );
  return parse(text, { merge: true });
}

/** The README's configuration table, docker-compose.yml and the schema must name the same settings. */
describe('configuration documentation', () => {
  it('documents every setting in the README and nothing else', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.split('## Configuration')[1]!.split('\n## ')[0]!;
    const documented = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...ENVIRONMENT_NAMES].sort());
  });

  it('makes the operator set every secret: compose refuses to start without them, and ships no value', () => {
    const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    for (const name of Object.keys(OPERATOR_ENV)) {
      expect(() => readCompose({ ...OPERATOR_ENV, [name]: '' })).toThrow(`${name} is required`);
      expect(text).toMatch(new RegExp(`\\$\\{${name}:\\?[^}]+\\}`));
    }
    const values = text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    expect(values).not.toMatch(/change-me|0{32}/);
  });

  it('uses only real settings in docker-compose.yml, and gives every service what it must have', () => {
    const compose = readCompose() as {
      services: Record<string, { environment?: Record<string, unknown> }>;
    };
    for (const name of ['api-1', 'api-2', 'worker']) {
      const env = compose.services[name]?.environment ?? {};
      for (const setting of Object.keys(env))
        expect({ service: name, setting, known: (ENVIRONMENT_NAMES as readonly string[]).includes(setting) }).toEqual({ service: name, setting, known: true });
      for (const required of ['DATABASE_URL', 'REDIS_URL', 'INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET', 'NODE_ENV']) {
        expect({ service: name, required, present: required in env }).toEqual({ service: name, required, present: true });
      }
    }
    expect(compose.services['api-1']!.environment?.WORKER_IN_PROCESS).toBe('false');
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'api-1', 'api-2', 'worker', 'nginx']));
  });

  it('describes the topology apps/api/test/deployment.e2e-spec.ts runs: its services, settings that start in production, the shipped nginx config', () => {
    const compose = readCompose() as {
      services: Record<string, { environment?: Record<string, unknown>; volumes?: string[]; ports?: string[] }>;
    };
    expect(Object.keys(compose.services).sort()).toEqual(['api-1', 'api-2', 'migrate', 'nginx', 'postgres', 'redis', 'worker']);
    for (const name of ['migrate', 'api-1', 'api-2', 'worker']) {
      const env = compose.services[name]!.environment ?? {};
      for (const setting of Object.keys(env))
        expect({ service: name, setting, known: (ENVIRONMENT_NAMES as readonly string[]).includes(setting) }).toEqual({ service: name, setting, known: true });
      // Unquoted, YAML reads 64 zeros as the number 0 and `yes` as true: values must reach the process as written.
      for (const [setting, value] of Object.entries(env))
        expect({ service: name, setting, type: typeof value }).toEqual({ service: name, setting, type: 'string' });
      // Whatever NODE_ENV=production demands (DATABASE_URL, the three secrets) is there and valid.
      expect(loadConfig(env as NodeJS.ProcessEnv)).toMatchObject({ env: 'production', redis: { url: 'redis://redis:6379' } });
    }
    for (const name of ['api-1', 'api-2']) expect(compose.services[name]!.environment).toMatchObject({ WORKER_IN_PROCESS: 'false', MIGRATIONS_RUN: 'false' });
    expect(compose.services.worker!.environment).toMatchObject({ MIGRATIONS_RUN: 'false' });

    // nginx runs the very file the deployment test runs, in front of both instances.
    expect(compose.services.nginx!.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(compose.services.nginx!.ports).toEqual(['8080:80']);
    const conf = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8');
    expect(conf.match(/^\s*server api-[12]:3000\b/gm)).toHaveLength(2);
    expect(conf).toMatch(/^\s*listen 80;/m);
  });
});
