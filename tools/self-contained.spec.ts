import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository stands alone: its docs (docs/api.md, docs/architecture.md) say what the code relies
 * on, and nothing committed points at documents outside it.
 */
const root = join(__dirname, '..');
const OUTSIDE = [/\.\.\/shared\b/, /CONTRACT(\.md| §)/, /spec\/device-telemetry-interface/, /\/work\/(wt|main|shared)\b/];

describe('the repository', () => {
  it('points at no document outside itself', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.startsWith('test-data/') && f !== 'package-lock.json' && f !== 'tools/self-contained.spec.ts');
    const found = files.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        return []; // listed but not in the work tree (deleted, not yet committed)
      }
      return text.split('\n').flatMap((line, i) => (OUTSIDE.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(found).toEqual([]);
  });
});
