export * from './chirpstack';
export * from './http-json';
export * from './network';
export { parseItem } from './read';
export * from './registry';
export * from './rest';
export * from './simulated';
export * from './the-things-stack';
export * from './uplink';
