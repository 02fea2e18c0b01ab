import { Injectable } from '@nestjs/common';
import {
  autoSeriesInterval,
  type Eui,
  SERIES_INTERVAL_SECONDS,
  SERIES_MAX_BUCKETS,
  type SeriesAggregate,
  type SeriesInterval,
  type SeriesWire,
} from '@dts/domain';
import { DatamodelRepository, SeriesRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from '../devices/device-access.service';
import { requireKnownAliases } from '../uplinks/data-members';
import type { SeriesQueryDto } from './dto/series-query.dto';

const DAY = 86_400;
const ALL_AGGREGATES: SeriesAggregate[] = ['min', 'avg', 'max', 'count'];

@Injectable()
export class SeriesService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly datamodel: DatamodelRepository,
    private readonly series: SeriesRepository,
  ) {}

  /** Aggregated buckets of the members over the range: validated first, then computed in the database (SeriesRepository: the daily and hourly rollups, and the uplinks). */
  async get(principal: AuthPrincipal, eui: Eui, query: SeriesQueryDto): Promise<SeriesWire> {
    const to = query.to ?? Math.floor(Date.now() / 1000);
    const from = query.from ?? Math.max(0, to - DAY);
    if (from > to) throw ApiException.validation('to', 'to must not be before from');
    const interval: SeriesInterval =
      query.interval === undefined || query.interval === 'auto' ? autoSeriesInterval(to - from) : (query.interval as SeriesInterval);
    const seconds = SERIES_INTERVAL_SECONDS[interval];
    const buckets = Math.floor(to / seconds) - Math.floor(from / seconds) + 1;
    if (buckets > SERIES_MAX_BUCKETS) {
      throw ApiException.validation(
        'interval',
        `${interval} over this range is ${buckets} buckets, more than ${SERIES_MAX_BUCKETS}: choose a coarser interval or auto`,
      );
    }
    const aggregates = query.agg ? ([...new Set(query.agg.split(','))] as SeriesAggregate[]) : ALL_AGGREGATES;
    const known = new Set((await this.datamodel.dataTypes()).map((t) => t.alias));
    const members = requireKnownAliases(query.members, known, 'members');
    const device = await this.access.require(principal, eui);

    const { rows, rollupBackfillUntil } = await this.series.buckets({ deviceUid: device.uid, members, aggregates, from, to, intervalSeconds: seconds });
    const out: SeriesWire = {
      from,
      to,
      interval,
      interval_s: seconds,
      t: rows.map((r) => Number(r.t)),
      members: {},
      rollup_backfill_until_unix: rollupBackfillUntil,
    };
    members.forEach((alias, i) => {
      const columns: SeriesWire['members'][string] = {};
      for (const agg of aggregates) columns[agg] = rows.map((r) => (r[`m${i}_${agg}`] === null ? null : Number(r[`m${i}_${agg}`])));
      out.members[alias] = columns;
    });
    return out;
  }
}
