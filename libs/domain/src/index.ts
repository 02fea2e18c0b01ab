export * from './decoders';
export * from './envelope';
export * from './eui';
export * from './ingest';
export * from './jobs';
export * from './payload';
export * from './time';
export * from './wire';
