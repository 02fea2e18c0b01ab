// What the numbers were measured on.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { adminQuery } from './database.mjs';
import { ROOT } from './paths.mjs';

export async function machineInfo(ctx) {
  const cpus = os.cpus();
  const pkgVersion = (name) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  const info = {
    date: new Date().toISOString(),
    host: os.hostname(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    ramGb: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
    node: process.version,
    gitCommit: git('rev-parse --short HEAD'),
    gitDirty: git('status --porcelain') ? true : false,
    database: ctx.embedded ? `embedded PGlite ${pkgVersion('@electric-sql/pglite')}` : null,
    postgres: null,
    redis: null,
    packages: Object.fromEntries(
      ['@nestjs/core', '@nestjs/platform-express', 'express', 'typeorm', 'pg', 'bullmq', 'ioredis', 'autocannon', '@electric-sql/pglite'].map((n) => [
        n,
        pkgVersion(n),
      ]),
    ),
  };
  if (!ctx.embedded) {
    try {
      info.postgres = (await adminQuery(ctx.pg, 'SHOW server_version'))[0].server_version;
    } catch (error) {
      info.postgres = `unreachable: ${error.message}`;
    }
  }
  if (!ctx.embedded)
    try {
      const { default: Redis } = await import('ioredis');
      const redis = new Redis(ctx.redis, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      info.redis = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? null;
      redis.disconnect();
    } catch (error) {
      info.redis = `unreachable: ${error.message}`;
    }
  return info;
}

function git(args) {
  try {
    return execSync(`git ${args}`, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}
