export * from './image-store';
export * from './images.repository';
export * from './image-gallery.repository';
