export * from './partition-bounds';
export * from './retention.repository';
export * from './rollup-backfill.repository';
export * from './time-partitions.repository';
export * from './timeseries-settings';
