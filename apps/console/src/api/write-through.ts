import type { Query, QueryClient, QueryFilters } from '@tanstack/react-query';

/**
 * Writes a live event into every cached query the filters name: now, and once more when a read of
 * that query in flight is in. A read answers with what it fetched — an infinite query's with the
 * pages it held when it started, the next page added — so a write made while it ran is lost to it:
 * a thumbnail the worker made, a command that left, not shown until something reads the list again
 * (seen in CI: a gallery without its thumbnails, a command still listed as waiting after it was
 * sent). Each write must be one that can be made twice (the event's state of one row).
 */
export function writeThrough(client: QueryClient, filters: QueryFilters, write: (query: Query) => void): void {
  for (const query of client.getQueryCache().findAll(filters)) {
    write(query);
    const inFlight = query.state.fetchStatus === 'fetching' ? query.promise : undefined;
    // The read's own continuation, which stores its answer, was registered when it started: this
    // one runs after it.
    if (inFlight)
      void inFlight.then(
        () => write(query),
        () => undefined,
      );
  }
}
