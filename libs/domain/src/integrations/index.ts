export * from './event-body';
export * from './integration';
export * from './retry-schedule';
export * from './topic-template';
export * from './webhook-signature';
