import { Injectable } from '@nestjs/common';
import { type DeviceRef, type Eui, filterMember, type StoredUplink, toDataRowWire, toFilteredRowWire, toUplinkRecordWire, type UplinkTestWire } from '@dts/domain';
import { DatamodelRepository, DataCacheRepository, type DataTypeRow, type UplinkRange, UplinkReadsRepository, type UplinkRow } from '@dts/persistence';
import { DecodingService } from '@dts/platform';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { EXPORT_MEDIA_TYPES, type ExportFormat, negotiateExportFormat } from '../../common/http/export-format';
import { streamEnvelope } from '../../common/http/stream-envelope';
import { streamLines } from '../../common/http/stream-lines';
import { DeviceAccessService } from '../devices/device-access.service';
import { DataCacheService } from './data-cache.service';
import type { DataQueryDto, HistoryQueryDto } from './dto/history-query.dto';
import { DATA_MEMBERS, DATA_POSITION_MEMBERS, FILTERED_MEMBERS, ndjsonLine, objectCsv, TABLE_CSV_HEADER, tableCsvLine } from './uplink-export';

function range(query: HistoryQueryDto): UplinkRange {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw ApiException.validation('to', 'to must not be before from');
  return { from: query.from ?? null, to: query.to ?? null, order: query.order ?? 'asc', limit: query.limit ?? null };
}

/** Content-Type and download name of an export: `<eui>-table.csv`, `<eui>-data.ndjson`… */
function exportHead(eui: string, view: 'table' | 'data', format: Exclude<ExportFormat, 'json'>) {
  return { contentType: EXPORT_MEDIA_TYPES[format], filename: `${eui}-${view}.${format}` };
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

  /** One row per uplink with every member of the spec's uplink record, streamed as JSON, CSV or NDJSON. */
  async table(principal: AuthPrincipal, eui: Eui, query: HistoryQueryDto, accept: string | undefined, res: Response): Promise<void> {
    const format = negotiateExportFormat(query.format, accept);
    const device = await this.device(principal, eui);
    const rows = this.reads.rows(device.uid, range(query));
    const wire = (row: UplinkRow) => toUplinkRecordWire(row, device);
    res.vary('Accept');
    switch (format) {
      case 'json':
        return streamEnvelope(res, [], rows, wire);
      case 'ndjson':
        return streamLines(res, exportHead(device.eui, 'table', format), rows, (row) => ndjsonLine(wire(row)));
      case 'csv':
        return streamLines(res, { ...exportHead(device.eui, 'table', format), preamble: TABLE_CSV_HEADER }, rows, (row) => tableCsvLine(wire(row)));
    }
  }

  /** Data rows, streamed as JSON, CSV or NDJSON; with `filter`, the requested members (and, in JSON, the meta the spec shows). */
  async data(principal: AuthPrincipal, eui: Eui, query: DataQueryDto, accept: string | undefined, res: Response): Promise<void> {
    const format = negotiateExportFormat(query.format, accept);
    const device = await this.device(principal, eui);
    const window = range(query);
    res.vary('Accept');
    if (query.filter === undefined) {
      if (format === 'json') {
        // The cache holds the JSON rendering: only a JSON read of the whole history may be served from it.
        const wholeHistory = query.from === undefined && query.to === undefined && query.limit === undefined && window.order === 'asc';
        if (wholeHistory && (await this.dataCache.serve(device.uid, res))) return;
        await streamEnvelope(res, [], this.reads.rows(device.uid, window), toDataRowWire);
        return;
      }
      // Rows carry the network position only where there is one; a CSV needs its columns up front.
      const present = new Set(await this.datamodel.aliasesInDeviceData(device.uid));
      const columns = [...DATA_MEMBERS, ...DATA_POSITION_MEMBERS.filter((m) => present.has(m))];
      await this.streamExport(res, device.eui, format, columns, this.reads.rows(device.uid, window), (row) => toDataRowWire(row) as unknown as Record<string, unknown>);
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
    const render = (row: UplinkRow) => toFilteredRowWire(row, members);
    if (format !== 'json') {
      await this.streamExport(res, device.eui, format, [...FILTERED_MEMBERS, ...aliases], this.reads.rows(device.uid, window), render);
      return;
    }
    const meta = { data_types: aliases.map((a) => byAlias.get(a)!.uid), cache_file_version: await this.cache.version(device.uid) };
    await streamEnvelope(res, meta, this.reads.rows(device.uid, window), render);
  }

  private streamExport(res: Response, eui: string, format: Exclude<ExportFormat, 'json'>, columns: readonly string[], rows: AsyncIterable<UplinkRow[]>, render: (row: UplinkRow) => Record<string, unknown>): Promise<void> {
    const head = exportHead(eui, 'data', format);
    if (format === 'ndjson') return streamLines(res, head, rows, (row) => ndjsonLine(render(row)));
    const csv = objectCsv(columns);
    return streamLines(res, { ...head, preamble: csv.header }, rows, (row) => csv.line(render(row)));
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
