export * from './image-store';
export * from './images.repository';
