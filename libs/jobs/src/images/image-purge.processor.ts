import { Processor } from '@nestjs/bullmq';
import { type JobPayloads, QUEUES } from '@dts/domain';
import { ImagesRepository, ImageStore } from '@dts/persistence';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/**
 * Removes a deleted image's bytes from the store; the row stays, marked deleted and purged. A row
 * already gone (its device or account was deleted) still has bytes to remove: uids are never reused.
 */
@Processor(QUEUES.imagePurge, PROCESSOR_OPTIONS)
export class ImagePurgeProcessor extends JobProcessor<'image.purge'> {
  readonly job = 'image.purge' as const;

  constructor(
    private readonly images: ImagesRepository,
    private readonly store: ImageStore,
  ) {
    super();
  }

  protected async handle(payload: JobPayloads['image.purge']): Promise<{ purged: boolean }> {
    const image = await this.images.byUid(payload.imageUid);
    // Only deleted images are ever queued; this guards against a job sent by mistake.
    if (image && image.deleted === 0) return { purged: false };
    await this.store.remove(payload.imageUid);
    if (image) await this.images.markPurged(image.uid);
    return { purged: true };
  }
}
