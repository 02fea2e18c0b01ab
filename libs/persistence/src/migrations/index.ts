import { Foundation1763769600000 } from './1763769600000-foundation';

/** Every migration in order. Append only: a migration that has run anywhere is never edited. */
export const MIGRATIONS = [Foundation1763769600000];
