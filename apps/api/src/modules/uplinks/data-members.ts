import { ApiException } from '../../common/http/api.exception';

/**
 * The data type aliases a read names (`filter` of the data rows, `members` of a series), once each
 * in their order; a name that is no data type is 400 naming the query member.
 */
export function requireKnownAliases(list: string, known: ReadonlySet<string>, field: string): string[] {
  const aliases = [...new Set(list.split(','))];
  const unknown = aliases.filter((a) => !known.has(a));
  if (unknown.length > 0) throw ApiException.validation(field, `unknown data type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return aliases;
}
