export * from './alert';
export * from './point-in-polygon';
export * from './rule';
export * from './transitions';
export * from './messages';
