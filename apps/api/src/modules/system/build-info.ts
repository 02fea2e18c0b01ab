import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Version of the HTTP interface, moved only by an incompatible change of it. */
export const API_VERSION = '1';

export interface BuildInfo {
  version: string;
  commit: string | null;
}

/** Written by tools/build.mjs next to the compiled code; the package version when absent (tests). */
export function readBuildInfo(): BuildInfo {
  for (const dir of [join(__dirname, '../../../../..'), process.cwd()]) {
    const built = join(dir, 'dist', 'build-info.json');
    if (existsSync(built)) return JSON.parse(readFileSync(built, 'utf8')) as BuildInfo;
  }
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
  return { version: pkg.version, commit: process.env.GIT_COMMIT ?? null };
}
