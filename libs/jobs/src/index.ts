export * from './jobs.module';
export * from './start-worker';
export * from './worker.module';
export * from './timeseries/timeseries-maintenance';
export * from './alerts/alert-mail-digests';
export * from './commands/network-client';
