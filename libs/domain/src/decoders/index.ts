export * from './cayenne-lpp';
export * from './codec-output';
export * from './decoder';
export * from './dt-camera-trap';
export * from './dt-environment';
export * from './dt-tracker';
export * from './raw';
export * from './registry';
