import { Processor } from '@nestjs/bullmq';
import { type JobPayloads, payloadProblems, QUEUES } from '@dts/domain';
import { DataCacheRepository, DatamodelRepository, DevicesRepository, type DecodedUpdate, type PayloadKey, UplinksRepository } from '@dts/persistence';
import { DecodingService } from '@dts/platform';
import { type Job, UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

export const REDECODE_BATCH = 1_000;

/**
 * Decodes a device's stored uplinks again with its current decoder, a batch per statement in
 * (received_at, uid) order, so that a retried job simply decodes the same rows to the same result.
 */
@Processor(QUEUES.deviceRedecode, PROCESSOR_OPTIONS)
export class DeviceRedecodeProcessor extends JobProcessor<'device.redecode'> {
  readonly job = 'device.redecode' as const;

  constructor(
    private readonly uplinks: UplinksRepository,
    private readonly datamodel: DatamodelRepository,
    private readonly devices: DevicesRepository,
    private readonly cache: DataCacheRepository,
    private readonly decoding: DecodingService,
  ) {
    super();
  }

  protected async handle(payload: JobPayloads['device.redecode'], job: Job): Promise<{ uplinks: number }> {
    // The device's decoder now, not the one in the payload: after two quick changes, both jobs
    // decode with the latest.
    const device = await this.devices.metaRowByUid(payload.deviceUid);
    if (!device) return { uplinks: 0 };
    const decoder = device.decoder_ref === null ? null : await this.datamodel.decoderByUid(device.decoder_ref);
    if (device.decoder_ref !== null && !decoder) throw new UnrecoverableError(`decoder ${device.decoder_ref} does not exist`);
    // Stale from the first rewritten row on: a read meanwhile goes to the database, not the cache.
    await this.cache.invalidate(payload.deviceUid);
    let after: PayloadKey | null = null;
    let total = 0;
    for (;;) {
      const rows = await this.uplinks.payloadBatch(payload.deviceUid, after, REDECODE_BATCH);
      const last = rows.at(-1);
      if (!last) break;
      // Off the event loop (codec threads; built-in decoders yield between slices), within the
      // owner's codec budgets: past them the rest of the batch is stored invalid, saying why.
      const results = await this.decoding.decodeMany(
        rows.map((row) => ({ accountId: device.owner_id, decoder, payload: new Uint8Array(row.payload), port: row.port })),
      );
      const updates: DecodedUpdate[] = rows.map((row, i) => {
        const result = results[i]!;
        return { uid: row.uid, at: row.at, decoded: result.decoded, valid: result.valid, ...payloadProblems(result), ...result.measurements };
      });
      await this.uplinks.applyDecoded(payload.deviceUid, updates);
      after = { at: last.at, uid: last.uid };
      total += rows.length;
      await job.updateProgress({ uplinks: total });
    }
    // The decoded values changed: the device's cached rendering is stale now.
    if (total > 0) await this.cache.invalidate(payload.deviceUid);
    return { uplinks: total };
  }
}
