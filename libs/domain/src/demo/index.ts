export * from './demo-routes';
export * from './demo-series';
export * from './prng';
export * from './uplink-encoders';
