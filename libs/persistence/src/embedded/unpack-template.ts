import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join, posix } from 'node:path';

const BLOCK = 512;
/** File contents are copied through one buffer of this size: the tar is never in memory whole. */
const CHUNK = 1 << 20;
/** Written last: PGlite (and embedded-postgres.ts) take a directory holding it for a database. */
const MARKER = 'PG_VERSION';

/**
 * Writes the template (a tar of a PGlite data directory, embedded-template.ts) into `dataPath`, file
 * by file from disk. Handing PGlite the tar as `loadDataDir` instead cost the embedded database's
 * thread about 130 MB of buffers (the file, a Blob of it and PGlite's copy) that stayed resident
 * for as long as that thread had no garbage to collect — in an idle service, indefinitely.
 *
 * PG_VERSION is written last, so that an unpacking cut short leaves a directory that is not taken
 * for a database: the next start unpacks into it again, over what is there.
 */
export function unpackTemplate(templatePath: string, dataPath: string): void {
  mkdirSync(dataPath, { recursive: true, mode: 0o700 });
  const tar = openSync(templatePath, 'r');
  const buffer = Buffer.allocUnsafe(CHUNK);
  let marker: { target: string; mode: number; offset: number; size: number } | null = null;
  try {
    let offset = 0;
    for (;;) {
      const header = Buffer.alloc(BLOCK);
      // A whole archive ends with zero blocks: one that just stops was cut short.
      if (readSync(tar, header, 0, BLOCK, offset) < BLOCK) throw new Error(`${templatePath} ends without the end of the archive`);
      if (header.every((b) => b === 0)) break;
      const entry = parseHeader(header);
      offset += BLOCK;
      const target = join(dataPath, entry.path);
      if (entry.type === 'directory') mkdirSync(target, { recursive: true, mode: entry.mode });
      else if (entry.path === MARKER) marker = { target, mode: entry.mode, offset, size: entry.size };
      else copy(tar, offset, entry.size, target, entry.mode, buffer);
      offset += Math.ceil(entry.size / BLOCK) * BLOCK;
    }
    if (!marker) throw new Error(`${templatePath} holds no ${MARKER}: not a data directory`);
    copy(tar, marker.offset, marker.size, marker.target, marker.mode, buffer);
  } finally {
    closeSync(tar);
  }
}

interface Entry {
  /** Relative to the data directory, inside it. */
  path: string;
  type: 'file' | 'directory';
  mode: number;
  size: number;
}

/** A ustar header of a regular file or a directory: what PGlite's dumpDataDir writes, nothing else. */
function parseHeader(header: Buffer): Entry {
  const text = (from: number, length: number) => {
    const field = header.subarray(from, from + length);
    const end = field.indexOf(0);
    return field.subarray(0, end < 0 ? length : end).toString('utf8');
  };
  const octal = (from: number, length: number) => parseInt(text(from, length).trim() || '0', 8);
  const name = text(0, 100);
  const prefix = text(257, 6).startsWith('ustar') ? text(345, 155) : '';
  const full = prefix ? `${prefix}/${name}` : name;
  const flag = String.fromCharCode(header[156] ?? 0);
  const type = flag === '5' ? 'directory' : flag === '0' || flag === '\0' ? 'file' : null;
  if (!type) throw new Error(`the template holds an entry of tar type "${flag}" (${full}): only files and directories are expected`);
  // Entries are named from the data directory's root ("/base/1/1259"); normalised from "/", a ".."
  // cannot climb above it.
  const path = posix.normalize(`/${full}`).slice(1).replace(/\/$/, '');
  return { path, type, mode: octal(100, 8) & 0o777 || (type === 'directory' ? 0o700 : 0o600), size: octal(124, 12) };
}

function copy(tar: number, offset: number, size: number, target: string, mode: number, buffer: Buffer): void {
  const out = openSync(target, 'w', mode);
  try {
    for (let done = 0; done < size;) {
      const read = readSync(tar, buffer, 0, Math.min(CHUNK, size - done), offset + done);
      if (read === 0) throw new Error(`the template ends inside ${target}`);
      writeSync(out, buffer, 0, read);
      done += read;
    }
  } finally {
    closeSync(out);
  }
}
