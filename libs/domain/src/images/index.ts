export * from './annotations';
export * from './image-bytes';
