export * from './csv';
export * from './device-filter';
export * from './device-import';
export * from './new-device';
export {
  DEVICE_IMPORT_COLUMNS,
  DEVICE_IMPORT_MAX_ROWS,
  DEVICE_TAGS_MAX_BYTES,
  type ImportedDevice,
  type ImportProblem,
  type ImportReference,
  type ReadImport,
} from './device-import-row';
