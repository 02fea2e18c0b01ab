export * from './device-metadata';
