import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The compiled JavaScript file a worker thread starts from, beside the calling module.
 *
 * A thread runs plain Node, not the test runner's TypeScript transform: from compiled code
 * (dist/, the Docker image) the file sits beside the caller; from the sources (jest) it is the same
 * file in dist/, which `npm run build` (and the test suites' global set-up) writes.
 */
export function threadEntry(callerFilename: string, callerDirname: string, file: string): string {
  if (!callerFilename.endsWith('.ts')) return join(callerDirname, file);
  const root = resolve(callerDirname, '../../../..');
  const compiled = join(root, 'dist', relative(root, callerDirname), file);
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run npm run build`);
  return compiled;
}
