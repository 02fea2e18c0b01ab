export * from './api-error';
export * from './client';
export * from './routes';
export * from './sse';
export * from './transport';
