import { S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { DirectoryImageStore, type ImageStore } from './image-store';
import { S3ImageStore } from './s3-image-store';

/** Each store against the real thing it talks to: a directory, and an S3 server (s3rver) on loopback. */
describe.each([['directory'], ['s3']])('%s image store', (kind) => {
  let store: ImageStore;
  let cleanup: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dts-images-'));
    if (kind === 'directory') {
      store = new DirectoryImageStore(join(dir, 'images'));
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
      return;
    }
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    const { port } = await server.run();
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: 'camera-traps' }));
    store = new S3ImageStore(client, 'camera-traps');
    cleanup = async () => {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => cleanup?.());

  it('keeps, returns and removes bytes by image uid', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, ...Array.from({ length: 5000 }, (_, i) => i % 251)]);
    expect(await store.get(7)).toBeNull();
    await store.put(7, bytes);
    expect((await store.get(7))!.equals(bytes)).toBe(true);
    await store.put(7, Buffer.from('replaced'));
    expect((await store.get(7))!.toString()).toBe('replaced');
    await store.remove(7);
    expect(await store.get(7)).toBeNull();
    await store.remove(7); // removing what is gone is not an error
  });

  it('takes concurrent writes of one image (repeated uploads racing each other)', async () => {
    const bytes = Buffer.from('same bytes, uploaded ten times at once');
    await Promise.all(Array.from({ length: 10 }, () => store.put(9, bytes)));
    expect((await store.get(9))!.equals(bytes)).toBe(true);
    if (kind === 'directory') expect(readdirSync(join(dir, 'images'))).toEqual(['9.img']);
    await store.remove(9);
  });

  it('names stored objects by uid only, never by anything a client sent', async () => {
    await store.put(42, Buffer.from('x'));
    if (kind === 'directory') expect(readdirSync(join(dir, 'images'))).toEqual(['42.img']);
    await store.remove(42);
  });
});
