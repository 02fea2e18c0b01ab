import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AppConfig } from '@dts/platform';
import { ImageStore } from './image-store';

/** Images in an S3 bucket (AWS, or a compatible store: MinIO, Ceph), by image uid. Loaded only when chosen (image-store.ts, IMAGE_STORAGE=s3). */
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

/** The store for IMAGE_STORAGE=s3, from its settings. */
export function s3ImageStore(s3: NonNullable<AppConfig['images']['s3']>): S3ImageStore {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint ?? undefined,
    // S3-compatible stores (MinIO, Ceph) address buckets by path.
    forcePathStyle: s3.endpoint !== null,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey.reveal() },
  });
  return new S3ImageStore(client, s3.bucket);
}
