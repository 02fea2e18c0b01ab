import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The rule of jest.config.js: CI's second pass (PostgreSQL + Redis) runs what differs between the
 * embedded database and them — every storage spec, every integration spec but service specs, and the
 * end-to-end files named with a reason — and nothing else twice. Asked of jest itself (`--listTests`
 * in each pass's environment), so a pattern that stops matching a file fails here.
 */
const root = join(__dirname, '..');
const jestBin = join(root, 'node_modules/jest/bin/jest.js');

function listTests(pass: 'embedded' | 'postgres'): Set<string> {
  const out = execFileSync(process.execPath, [jestBin, '--listTests', '--json'], {
    cwd: root,
    env: { ...process.env, DTS_TEST_PASS: pass },
    encoding: 'utf8',
  });
  return new Set((JSON.parse(out) as string[]).map((file) => relative(root, file)));
}

function specsUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.spec\.ts$|\.int-spec\.ts$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes('node_modules'));
}

describe('the two passes of npm test', () => {
  let first: Set<string>;
  let second: Set<string>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const secondPassE2e = require(join(root, 'tools/jest/second-pass.js')).SECOND_PASS_E2E as Record<string, string>;

  beforeAll(() => {
    first = listTests('embedded');
    second = listTests('postgres');
  }, 60_000);

  it('runs every spec of the storage layer (libs/persistence) on both databases', () => {
    const storage = specsUnder('libs/persistence/src');
    expect(storage.length).toBeGreaterThan(10);
    expect(storage.filter((file) => !first.has(file) || !second.has(file))).toEqual([]);
  });

  it('runs every integration spec but service specs on both', () => {
    const integration = ['libs', 'apps'].flatMap((dir) => specsUnder(dir)).filter((file) => file.endsWith('.int-spec.ts'));
    const twice = integration.filter((file) => !file.endsWith('.service.int-spec.ts'));
    expect(twice.filter((file) => !first.has(file) || !second.has(file))).toEqual([]);
    expect(integration.filter((file) => file.endsWith('.service.int-spec.ts') && second.has(file))).toEqual([]);
  });

  it('runs the end-to-end files named in tools/jest/second-pass.js in the second pass, and no other', () => {
    const named = Object.keys(secondPassE2e).map((name) => `apps/api/test/${name}.e2e-spec.ts`);
    expect(named.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(named.filter((file) => !second.has(file))).toEqual([]);
    const e2eInSecond = [...second].filter((file) => file.endsWith('.e2e-spec.ts'));
    expect(e2eInSecond.sort()).toEqual(named.sort());
    for (const reason of Object.values(secondPassE2e)) expect(reason.length).toBeGreaterThan(10);
  });

  it('runs no unit spec outside the storage layer twice, and nothing only in the second pass', () => {
    const unitTwice = [...second].filter((file) => file.endsWith('.spec.ts') && !file.endsWith('.int-spec.ts') && !file.startsWith('libs/persistence/'));
    expect(unitTwice).toEqual([]);
    expect([...second].filter((file) => !first.has(file))).toEqual([]);
  });
});
