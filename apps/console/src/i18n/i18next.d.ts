import 'i18next';
import type { en } from './messages';

// Keys given to t() are checked against the English catalogue: a key that does not exist is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
