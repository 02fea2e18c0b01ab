/**
 * PostgreSQL's settings for the embedded server, a small deployment's: PGlite keeps all of
 * PostgreSQL's shared memory in its WebAssembly heap, resident from the start, and that heap never
 * gives memory back. With the default 128 MB buffer pool the database's thread held 150 MB before
 * the first request. The data files are read through the operating system's page cache, so a
 * page the smaller pool lacks costs a copy, not a disk read (small reads touch far fewer pages than
 * it holds); sequential scans of large tables use a small ring of buffers whatever the pool's size.
 * A query whose pages outgrow the pool pays for it: an hourly aggregate over a month of one device of
 * ten, 35 MB of pages, took 66 ms of CPU instead of 42 (PGlite alone, 1M rows). Memory one
 * statement takes (a sort, an index build) stays in the heap as its high-water mark: index builds,
 * which a migration of a large database runs, are bounded like the other work areas (work_mem keeps
 * its 4 MB default).
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
};
