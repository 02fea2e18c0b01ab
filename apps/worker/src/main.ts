import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { startWorker } from '@dts/jobs';
import { ConfigError, loadConfig, RedisPolicyError } from '@dts/platform';
import { config as loadDotenv } from 'dotenv';

/** The worker alone (`npm run start:worker`), beside api instances started with WORKER_IN_PROCESS=false. */
async function main() {
  loadDotenv({ quiet: true });
  const config = loadConfig();
  if (!config.database.url) {
    process.stderr.write('Invalid configuration: DATABASE_URL: required to run the worker on its own (in embedded mode it runs inside `npm start`)\n');
    process.exit(1);
  }
  const worker = await startWorker(config, { url: config.database.url, embedded: false }, { healthPort: config.worker.healthPort });
  // Through the application's logger: stdout carries log records only (JSON lines outside a terminal).
  const logger = new Logger('main');
  logger.log(`worker running; health on :${config.worker.healthPort}/health/ready`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    logger.log('stopping: readiness now fails; finishing the active jobs');
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref();
    worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) for (const line of error.problems) process.stderr.write(`Invalid configuration: ${line}\n`);
  else if (error instanceof RedisPolicyError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`worker start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
