import { Injectable } from '@nestjs/common';
import { type DeviceRef, type Eui, filterMember, type StoredUplink, toDataRowWire, toFilteredRowWire, toUplinkRecordWire, type UplinkRecordWire } from '@dts/domain';
import { DatamodelRepository, DataCacheRepository, type DataTypeRow, type UplinkRange, UplinkReadsRepository, type UplinkRow } from '@dts/persistence';
import { DecodingService } from '@dts/platform';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { streamEnvelope } from '../../common/http/stream-envelope';
import { DeviceAccessService } from '../devices/device-access.service';
import { DataCacheService } from './data-cache.service';
import type { DataQueryDto, HistoryQueryDto } from './dto/history-query.dto';

export interface UplinkTestWire {
  uplink: UplinkRecordWire;
  payload_decoded: Record<string, unknown>;
  decoder: string;
  valid: boolean;
  errors: string[];
}

function range(query: HistoryQueryDto): UplinkRange {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw ApiException.validation('to', 'to must not be before from');
  return { from: query.from ?? null, to: query.to ?? null, order: query.order ?? 'asc', limit: query.limit ?? null };
}

@Injectable()
export class UplinksService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly reads: UplinkReadsRepository,
    private readonly datamodel: DatamodelRepository,
    private readonly cache: DataCacheRepository,
    private readonly decoding: DecodingService,
    private readonly dataCache: DataCacheService,
  ) {}

  private async device(principal: AuthPrincipal, eui: Eui): Promise<DeviceRef & { decoderRef: number | null }> {
    const d = await this.access.require(principal, eui);
    return { uid: d.uid, eui: d.eui, ownerId: d.ownerId, decoderRef: d.decoderRef };
  }

  /** One row per uplink with every member of the spec's uplink record, streamed. */
  async table(principal: AuthPrincipal, eui: Eui, query: HistoryQueryDto, res: Response): Promise<void> {
    const device = await this.device(principal, eui);
    await streamEnvelope(res, [], this.reads.rows(device.uid, range(query)), (row: UplinkRow) => toUplinkRecordWire(row, device));
  }

  /** Data rows, streamed; with `filter`, the requested members and the meta the spec shows. */
  async data(principal: AuthPrincipal, eui: Eui, query: DataQueryDto, res: Response): Promise<void> {
    const device = await this.device(principal, eui);
    const window = range(query);
    if (query.filter === undefined) {
      const wholeHistory = query.from === undefined && query.to === undefined && query.limit === undefined && window.order === 'asc';
      if (wholeHistory && (await this.dataCache.serve(device.uid, res))) return;
      await streamEnvelope(res, [], this.reads.rows(device.uid, window), toDataRowWire);
      return;
    }
    const types = await this.datamodel.dataTypes();
    const byAlias = new Map<string, DataTypeRow>(types.map((t) => [t.alias, t]));
    const aliases = [...new Set(query.filter.split(','))];
    const members: [string, (row: StoredUplink) => number | string | null][] = [];
    const unknown: string[] = [];
    for (const alias of aliases) {
      const read = filterMember(alias, new Set(byAlias.keys()));
      if (read) members.push([alias, read]);
      else unknown.push(alias);
    }
    if (unknown.length > 0) throw ApiException.validation('filter', `unknown data type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
    const meta = { data_types: aliases.map((a) => byAlias.get(a)!.uid), cache_file_version: await this.cache.version(device.uid) };
    await streamEnvelope(res, meta, this.reads.rows(device.uid, window), (row: UplinkRow) => toFilteredRowWire(row, members));
  }

  /** Decodes the newest stored uplink again with the device's current decoder; stores nothing. */
  async test(principal: AuthPrincipal, eui: Eui): Promise<UplinkTestWire> {
    const device = await this.device(principal, eui);
    const latest = await this.reads.latest(device.uid);
    if (!latest) throw ApiException.notFound('uplink of this device');
    const decoder = device.decoderRef === null ? null : await this.datamodel.decoderByUid(device.decoderRef);
    const result = this.decoding.decode(decoder, latest.payload, latest.port);
    return {
      uplink: toUplinkRecordWire(latest, device),
      payload_decoded: result.decoded,
      decoder: decoder?.name ?? 'raw',
      valid: result.valid,
      errors: result.error ? [result.error] : [],
    };
  }
}
