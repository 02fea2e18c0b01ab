export * from './device-filter.dto';
export * from './integration.dto';
export * from './integration.responses';
