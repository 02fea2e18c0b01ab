import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig, RedisPolicyError } from '@dts/platform';
import { DataDirInUseError } from '@dts/persistence';
import { config as loadDotenv } from 'dotenv';
import { startService } from './runtime';

async function main() {
  loadDotenv({ quiet: true });
  const config = loadConfig();
  const service = await startService(config);
  // Through the application's logger: stdout carries log records only (JSON lines outside a terminal).
  const logger = new Logger('main');
  logger.log(
    `Device Telemetry Service listening on ${config.publicBaseUrl} (${service.database.embedded ? `embedded database in ${config.database.dataDir}` : 'PostgreSQL'}${service.worker ? ', worker in process' : ''})`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: readiness now fails; finishing in-flight requests`);
    const timer = setTimeout(() => {
      process.stderr.write(`shutdown took longer than ${config.shutdownTimeoutMs} ms: exiting\n`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    service.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const line of error.problems) process.stderr.write(`Invalid configuration: ${line}\n`);
  } else if (error instanceof DataDirInUseError || error instanceof RedisPolicyError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
