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

/**
 * The store the settings name. The S3 client is loaded only when S3 is chosen: the AWS SDK costs a
 * process about 0.3 s and 30 MB on start, which the default store (the database) never needs
 * (docs/benchmarks.md, figure 15).
 */
export async function createImageStore(config: AppConfig['images'], ds: DataSource): Promise<ImageStore> {
  switch (config.storage) {
    case 'database':
      return new DatabaseImageStore(ds);
    case 'directory':
      return new DirectoryImageStore(config.dir);
    case 's3': {
      const { s3ImageStore } = await import('./s3-image-store');
      return s3ImageStore(config.s3!);
    }
  }
}
