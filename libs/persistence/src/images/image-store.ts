import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AppConfig } from '@dts/platform';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

/**
 * Where image bytes live, by image uid (never by a name a client chose, so no path a client can
 * steer). The database by default, so that any instance behind the load balancer serves any image.
 */
export abstract class ImageStore {
  abstract put(imageUid: number, bytes: Buffer): Promise<void>;
  /** null when the bytes are not (or no longer) there. */
  abstract get(imageUid: number): Promise<Buffer | null>;
  abstract remove(imageUid: number): Promise<void>;
}

export class DatabaseImageStore extends ImageStore {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async put(imageUid: number, bytes: Buffer): Promise<void> {
    await this.ds.query('INSERT INTO image_blobs (image_id, bytes) VALUES ($1, $2) ON CONFLICT (image_id) DO UPDATE SET bytes = EXCLUDED.bytes', [
      imageUid,
      bytes,
    ]);
  }

  async get(imageUid: number): Promise<Buffer | null> {
    const rows: { bytes: Buffer }[] = await this.ds.query('SELECT bytes FROM image_blobs WHERE image_id = $1', [imageUid]);
    return rows[0]?.bytes ?? null;
  }

  async remove(imageUid: number): Promise<void> {
    await this.ds.query('DELETE FROM image_blobs WHERE image_id = $1', [imageUid]);
  }
}

export class DirectoryImageStore extends ImageStore {
  constructor(private readonly dir: string) {
    super();
  }

  private path(imageUid: number) {
    return join(this.dir, `${imageUid}.img`);
  }

  async put(imageUid: number, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Written aside, then renamed: a reader never sees half a file. The temp name is unique per
    // write, since concurrent uploads of the same bytes (or containers sharing the volume, each
    // pid 1) write the same image at once.
    const temp = `${this.path(imageUid)}.${randomUUID()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, this.path(imageUid));
  }

  async get(imageUid: number): Promise<Buffer | null> {
    try {
      return await readFile(this.path(imageUid));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(imageUid: number): Promise<void> {
    await rm(this.path(imageUid), { force: true });
  }
}

export class S3ImageStore extends ImageStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {
    super();
  }

  private key(imageUid: number) {
    return `images/${imageUid}`;
  }

  async put(imageUid: number, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(imageUid), Body: bytes }));
  }

  async get(imageUid: number): Promise<Buffer | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(imageUid) }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async remove(imageUid: number): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(imageUid) }));
  }
}

export function createImageStore(config: AppConfig['images'], ds: DataSource): ImageStore {
  switch (config.storage) {
    case 'database':
      return new DatabaseImageStore(ds);
    case 'directory':
      return new DirectoryImageStore(config.dir);
    case 's3': {
      const s3 = config.s3!;
      const client = new S3Client({
        region: s3.region,
        endpoint: s3.endpoint ?? undefined,
        // S3-compatible stores (MinIO, Ceph) address buckets by path.
        forcePathStyle: s3.endpoint !== null,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey.reveal() },
      });
      return new S3ImageStore(client, s3.bucket);
    }
  }
}
