import { ApiProperty } from '@nestjs/swagger';
import { SERIES_INTERVALS, type SeriesAggregate, type SeriesInterval, type SeriesWire } from '@dts/domain';

const column = { type: 'array', items: { type: 'number', nullable: true } } as const;

export class SeriesResponse implements SeriesWire {
  @ApiProperty({ description: 'Start of the range (unix seconds, inclusive).' }) from!: number;
  @ApiProperty({ description: 'End of the range (unix seconds, inclusive).' }) to!: number;
  @ApiProperty({ enum: SERIES_INTERVALS }) interval!: SeriesInterval;
  @ApiProperty({ description: 'Bucket width in seconds.' }) interval_s!: number;
  @ApiProperty({ type: [Number], description: 'Start of each bucket that holds uplinks (unix seconds, epoch-aligned, UTC), oldest first.' }) t!: number[];
  @ApiProperty({
    type: 'object',
    description: 'Per member, per aggregate, one value per bucket aligned with `t` (null where the bucket’s uplinks lack the member).',
    additionalProperties: { type: 'object', properties: { min: column, avg: column, max: column, count: column } },
    example: { temperature: { min: [18.1, 18.4], avg: [18.6, 18.9], max: [19.2, 19.3], count: [4, 4] } },
  })
  members!: Record<string, Partial<Record<SeriesAggregate, (number | null)[]>>>;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'While a rollup lags (after an upgrade, the uplinks stored before rollups existed are being rolled up): the time (unix seconds) before which these buckets were computed from the uplinks themselves. Null when the rollups are complete.',
  })
  rollup_backfill_until_unix!: number | null;
}
