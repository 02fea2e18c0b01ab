export * from './read-database';
