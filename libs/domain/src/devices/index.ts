export * from './device-import';
