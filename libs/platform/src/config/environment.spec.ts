import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENVIRONMENT_NAMES } from './environment';

const root = join(__dirname, '../../../..');

/** The README's configuration table, docker-compose.yml and the schema must name the same settings. */
describe('configuration documentation', () => {
  it('documents every setting in the README and nothing else', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.split('## Configuration')[1].split('\n## ')[0];
    const documented = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...ENVIRONMENT_NAMES].sort());
  });

  it('uses only real settings in docker-compose.yml, and gives every service what it must have', () => {
    const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, unknown> }>;
    };
    for (const name of ['api-1', 'api-2', 'worker']) {
      const env = compose.services[name]?.environment ?? {};
      for (const setting of Object.keys(env)) expect({ service: name, setting, known: (ENVIRONMENT_NAMES as readonly string[]).includes(setting) }).toEqual({ service: name, setting, known: true });
      for (const required of ['DATABASE_URL', 'REDIS_URL', 'INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET', 'NODE_ENV']) {
        expect({ service: name, required, present: required in env }).toEqual({ service: name, required, present: true });
      }
    }
    expect(compose.services['api-1'].environment?.WORKER_IN_PROCESS).toBe('false');
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'api-1', 'api-2', 'worker', 'nginx']));
  });
});
