export * from './device-events.repository';
export * from './ingest.repository';
export * from './uplink-columns';
export * from './uplink-reads.repository';
export * from './uplinks.repository';
