import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BENCH_DIR, '../..');

/** A file of the build the figures run (`--dist`, relative to the root or absolute; `dist/` by default). */
export const distFile = (ctx, file) => resolve(ROOT, ctx.dist ?? 'dist', file);
