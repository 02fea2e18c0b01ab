export * from './live-bus';
export * from './live-notices';
