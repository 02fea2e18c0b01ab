export * from './live-bus';
