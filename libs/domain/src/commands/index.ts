export * from './command-payload';
