import { Processor } from '@nestjs/bullmq';
import { IMAGE_STATUS, type JobPayloads, QUEUES } from '@dts/domain';
import { ImagesRepository, ImageStore } from '@dts/persistence';
import { UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/** The longest side of a thumbnail, in pixels. */
export const THUMB_SIZE = 320;

/**
 * Makes an image's thumbnail (a JPEG, its longest side THUMB_SIZE, turned upright by its EXIF
 * orientation) and records its dimensions: status 2 while it works, 4 (or 5 when annotations came
 * first) after, 3 with the reason when the bytes are no image sharp can read.
 */
@Processor(QUEUES.imageThumbnail, PROCESSOR_OPTIONS)
export class ImageThumbnailProcessor extends JobProcessor<'image.thumbnail'> {
  readonly job = 'image.thumbnail' as const;

  constructor(
    private readonly images: ImagesRepository,
    private readonly store: ImageStore,
  ) {
    super();
  }

  protected async handle(payload: JobPayloads['image.thumbnail']): Promise<{ status: number }> {
    const image = await this.images.byUid(payload.imageUid);
    if (!image || image.deleted === 1) return { status: 0 };
    // A repeated job for an image already done (a retried upload) must not move it back to 2.
    if (image.status === IMAGE_STATUS.READY || image.status === IMAGE_STATUS.ANNOTATED) return { status: image.status };
    await this.images.setStatus(image.uid, IMAGE_STATUS.PROCESSING);
    const bytes = await this.store.get(image.uid);
    if (!bytes) {
      await this.images.setStatus(image.uid, IMAGE_STATUS.FAILED, 'the image bytes are missing from the store');
      throw new UnrecoverableError('image bytes missing');
    }
    let thumb: Buffer;
    let details: Record<string, unknown>;
    try {
      // Loaded at the first image, not at start-up: libvips is about 20 MB of a process that may
      // never see a photo (docs/benchmarks.md, figure 15).
      const { default: sharp } = await import('sharp');
      const source = sharp(bytes, { failOn: 'error', limitInputPixels: 100_000_000 });
      const meta = await source.metadata();
      thumb = await source.rotate().resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 75, mozjpeg: true }).toBuffer();
      details = { width: meta.width ?? null, height: meta.height ?? null, format: meta.format ?? null, orientation: meta.orientation ?? null };
    } catch (error) {
      const reason = `the image could not be read: ${(error as Error).message}`.slice(0, 300);
      await this.images.setStatus(image.uid, IMAGE_STATUS.FAILED, reason);
      throw new UnrecoverableError(reason);
    }
    await this.images.setThumbnail(image.uid, thumb, details);
    return { status: image.annotations.length > 0 ? IMAGE_STATUS.ANNOTATED : IMAGE_STATUS.READY };
  }
}
