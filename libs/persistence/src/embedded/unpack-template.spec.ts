import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackTemplate } from './unpack-template';

/** A ustar archive of these entries, as PGlite's dumpDataDir writes one (names from the root). */
function tar(entries: { name: string; type?: string; mode?: number; content?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { name, type = '0', mode = 0o600, content = '' } of entries) {
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write(`${mode.toString(8).padStart(7, '0')}\0`, 100);
    header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
    header.write(type, 156);
    header.write('ustar\0', 257);
    blocks.push(header);
    const body = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
    body.write(content);
    blocks.push(body);
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

describe('unpacking the embedded database template into a data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dts-unpack-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const archive = (entries: Parameters<typeof tar>[0]) => {
    const path = join(dir, 'template.tar');
    writeFileSync(path, tar(entries));
    return path;
  };

  it('writes every directory and file with its mode, files larger than a copy chunk whole', () => {
    const big = 'x'.repeat((1 << 20) + 700);
    const path = archive([
      { name: '/base', type: '5', mode: 0o700 },
      { name: '/base/1', type: '5', mode: 0o700 },
      { name: '/PG_VERSION', content: '18\n' },
      { name: '/base/1/1259', content: big, mode: 0o600 },
    ]);
    unpackTemplate(path, join(dir, 'pgdata'));
    expect(readFileSync(join(dir, 'pgdata/base/1/1259'), 'utf8')).toBe(big);
    expect(readFileSync(join(dir, 'pgdata/PG_VERSION'), 'utf8')).toBe('18\n');
    expect(statSync(join(dir, 'pgdata/base/1/1259')).mode & 0o777).toBe(0o600);
  });

  it('writes PG_VERSION last: cut short, the directory is not a database, and unpacks again over itself', () => {
    const entries = [
      { name: '/PG_VERSION', content: '18\n' },
      { name: '/global/1262', content: 'g'.repeat(3000) },
    ];
    const whole = tar([{ name: '/global', type: '5' }, ...entries]);
    const cut = join(dir, 'cut.tar');
    writeFileSync(cut, whole.subarray(0, 512 * 5)); // the last file's header and part of its content
    expect(() => unpackTemplate(cut, join(dir, 'pgdata'))).toThrow(/ends inside/);
    expect(existsSync(join(dir, 'pgdata/PG_VERSION'))).toBe(false);
    // Cut at an entry's end: no end-of-archive blocks, no PG_VERSION either.
    writeFileSync(cut, whole.subarray(0, 512 * 3));
    expect(() => unpackTemplate(cut, join(dir, 'pgdata'))).toThrow(/without the end of the archive/);
    expect(existsSync(join(dir, 'pgdata/PG_VERSION'))).toBe(false);

    unpackTemplate(archive([{ name: '/global', type: '5' }, ...entries]), join(dir, 'pgdata'));
    expect(readFileSync(join(dir, 'pgdata/global/1262'), 'utf8')).toHaveLength(3000);
    expect(existsSync(join(dir, 'pgdata/PG_VERSION'))).toBe(true);
  });

  it('keeps every entry inside the data directory and refuses links', () => {
    unpackTemplate(
      archive([
        { name: '/../../escaped', content: 'no' },
        { name: '/PG_VERSION', content: '18\n' },
      ]),
      join(dir, 'pgdata'),
    );
    expect(readFileSync(join(dir, 'pgdata/escaped'), 'utf8')).toBe('no');
    expect(() => unpackTemplate(archive([{ name: '/link', type: '2' }]), join(dir, 'other'))).toThrow(/tar type "2"/);
  });
});
