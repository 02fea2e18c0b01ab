import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The module-boundary rule cannot run without the Nx project graph, and the plugin then only warns:
 * eslint.config.mjs makes that a failure, so that a lint run never passes with the rule skipped.
 */
describe('lint without the Nx project graph', () => {
  it('fails, naming the fix, instead of skipping the module-boundary rule', () => {
    const empty = mkdtempSync(join(tmpdir(), 'dts-no-graph-'));
    try {
      const run = spawnSync(process.execPath, [join(__dirname, '../node_modules/eslint/bin/eslint.js'), 'libs/domain/src/eui.ts'], {
        cwd: join(__dirname, '..'),
        encoding: 'utf8',
        env: { ...process.env, NX_WORKSPACE_DATA_DIRECTORY: empty, NX_DAEMON: 'false' },
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('No Nx project graph is cached');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
