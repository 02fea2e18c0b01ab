import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Version of the HTTP interface, moved only by an incompatible change of it. */
export const API_VERSION = '1';

export interface BuildInfo {
  version: string;
  commit: string | null;
}

/**
 * The project root seen from this file, compiled (dist/libs/platform/src) or run from source by the
 * tests (libs/platform/src); never the working directory, which is wherever the operator started
 * the process. Both apps read it: /version, the OpenAPI document and the `dts_build_info` metric.
 */
const ROOTS = [join(__dirname, '../../../..'), join(__dirname, '../../..')];

/** Written by tools/build.mjs next to the compiled code; the package version when absent (tests). */
export function readBuildInfo(): BuildInfo {
  for (const root of ROOTS) {
    const built = join(root, 'dist', 'build-info.json');
    if (existsSync(built)) return JSON.parse(readFileSync(built, 'utf8')) as BuildInfo;
  }
  const root = ROOTS.find((dir) => existsSync(join(dir, 'package.json')))!;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version: pkg.version, commit: process.env.GIT_COMMIT ?? null };
}
