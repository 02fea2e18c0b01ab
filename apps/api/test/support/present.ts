/**
 * The element at `index` (negative counts from the end), failing the test with a message naming
 * what is missing instead of a TypeError further on. For reads whose presence the test has not
 * already asserted; under noUncheckedIndexedAccess a plain `rows[0]` may be undefined.
 */
export function at<T>(items: readonly T[], index: number, what = 'row'): T {
  const item = items.at(index);
  if (item === undefined) throw new Error(`expected a ${what} at index ${index}, got ${items.length} item(s)`);
  return item;
}
