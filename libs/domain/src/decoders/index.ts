export * from './decoder';
export * from './raw';
export * from './registry';
