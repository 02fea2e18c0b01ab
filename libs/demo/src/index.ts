export * from './demo-devices';
export * from './demo-photos';
export * from './demo-routes';
export * from './demo-series';
export * from './demo-uplinks';
export * from './prng';
