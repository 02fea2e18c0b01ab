/**
 * `npm run migrate`: applies pending migrations and exits, for deployments that run them as a
 * separate step (MIGRATIONS_RUN=false on the api instances).
 */
import 'reflect-metadata';
import { ConfigError, loadConfig } from '@dts/platform';
import { runMigrations } from '../data-source';

async function main() {
  const config = loadConfig();
  if (!config.database.url) {
    console.error('DATABASE_URL: required for `npm run migrate` (the embedded database migrates itself at start)');
    process.exit(1);
  }
  const applied = await runMigrations({ url: config.database.url, poolSize: 1 });
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migration');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
