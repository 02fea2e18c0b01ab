export * from './alert';
export * from './alert-mapping';
export * from './point-in-polygon';
export * from './rule';
export * from './transitions';
export * from './messages';
