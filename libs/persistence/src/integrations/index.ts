export * from './deliveries.repository';
export * from './event-routing.repository';
export * from './integrations.repository';
export * from './routing-batch';
