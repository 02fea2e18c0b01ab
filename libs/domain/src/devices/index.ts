export * from './csv';
export * from './device-import';
