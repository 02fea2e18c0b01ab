import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import { ImagesRepository, ImageStore } from '@dts/persistence';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

const EVERY_MS = 15 * 60 * 1000;
/**
 * An upload's row and its bytes are stored in the same request, seconds apart at most (the body
 * has been received before the row is made): a row this old without its bytes never completes.
 */
export const INCOMPLETE_UPLOAD_AGE_MS = 60 * 60 * 1000;

/**
 * Every 15 minutes: uploads cut short (a process killed between the image row and its bytes) are
 * marked deleted and whatever bytes they left are removed, as for a deleted image. They were never
 * visible: nothing anyone listed or linked disappears.
 */
@Processor(QUEUES.imageReap, PROCESSOR_OPTIONS)
export class ImageReapProcessor extends JobProcessor<'image.reap'> implements OnApplicationBootstrap {
  readonly job = 'image.reap' as const;
  private readonly logger = new Logger(ImageReapProcessor.name);

  constructor(
    private readonly images: ImagesRepository,
    private readonly store: ImageStore,
    @InjectQueue(QUEUES.imageReap) private readonly queue: Queue,
  ) {
    super();
  }

  /** One scheduler for all workers: upserting it again is a no-op. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('image-reap', { every: EVERY_MS }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<{ reaped: number }> {
    const uids = await this.images.retireIncomplete(INCOMPLETE_UPLOAD_AGE_MS);
    for (const uid of uids) {
      await this.store.remove(uid);
      await this.images.markPurged(uid);
    }
    if (uids.length > 0) this.logger.log(`removed ${uids.length} uploads that never completed`);
    return { reaped: uids.length };
  }
}
