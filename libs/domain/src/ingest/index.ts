export * from './chirpstack';
export * from './normalized-uplink';
export { parseItem } from './read';
export * from './rest';
export * from './samples';
export * from './ttn';
