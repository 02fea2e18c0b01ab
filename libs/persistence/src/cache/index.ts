export * from './cache-chunk.store';
export * from './data-cache.repository';
