export * from './command-payload';
export * from './encoders';
