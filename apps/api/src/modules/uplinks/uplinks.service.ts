import { Injectable } from '@nestjs/common';
import {
  type DeviceRef,
  type Eui,
  filterMember,
  historyRetentionHeaders,
  type StoredUplink,
  toUnix,
  toDataRowWire,
  toFilteredRowWire,
  toUplinkRecordWire,
  payloadProblems,
  type UplinkIssues,
  type UplinkTestWire,
} from '@dts/domain';
import {
  cutoffDay,
  DatamodelRepository,
  DataCacheRepository,
  type DataTypeRow,
  RetentionRepository,
  type UplinkRange,
  UplinkReadsRepository,
  type UplinkRow,
} from '@dts/persistence';
import { DecodingService } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { EXPORT_MEDIA_TYPES, type ExportFormat, negotiateExportFormat } from '../../common/http/export-format';
import { envelopeBody, envelopeOfJson, linesBody, type StreamBody } from '../../common/http/stream-body';
import { DeviceAccessService } from '../devices/device-access.service';
import { DataCacheService } from './data-cache.service';
import { requireKnownAliases } from './data-members';
import type { DataQueryDto, HistoryQueryDto, TableQueryDto } from './dto/history-query.dto';
import { DATA_MEMBERS, DATA_POSITION_MEMBERS, FILTERED_MEMBERS, ndjsonLine, objectCsv, TABLE_CSV_HEADER, tableCsvLine } from './uplink-export';

function range(query: HistoryQueryDto & { issues?: UplinkIssues }): UplinkRange {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw ApiException.validation('to', 'to must not be before from');
  return { from: query.from ?? null, to: query.to ?? null, order: query.order ?? 'asc', limit: query.limit ?? null, issues: query.issues ?? null };
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
    private readonly retention: RetentionRepository,
  ) {}

  private async device(principal: AuthPrincipal, eui: Eui): Promise<DeviceRef & { decoderRef: number | null }> {
    const d = await this.access.require(principal, eui);
    return { uid: d.uid, eui: d.eui, ownerId: d.ownerId, decoderRef: d.decoderRef };
  }

  /**
   * The answer with the device's retention in its headers (docs/api.md §5, "Retention"): the days in
   * force and the UTC midnight before which raw uplinks are removed, as the maintenance job cuts
   * them today. One primary-key look-up, after the request has passed every check.
   */
  private async withRetention<T>(deviceUid: number, body: StreamBody<T>): Promise<StreamBody<T>> {
    const days = (await this.retention.ofDevice(deviceUid))?.effectiveDays ?? null;
    const from = days === null ? null : toUnix(cutoffDay(new Date(), days));
    return { ...body, headers: { ...body.headers, ...historyRetentionHeaders({ retention_days: days, raw_history_from_unix: from }) } };
  }

  /** One row per uplink with every member of the uplink record (docs/api.md §15), streamed as JSON, CSV or NDJSON. */
  async table(principal: AuthPrincipal, eui: Eui, query: TableQueryDto, accept: string | undefined): Promise<StreamBody<UplinkRow>> {
    const format = negotiateExportFormat(query.format, accept);
    const device = await this.device(principal, eui);
    return this.withRetention(device.uid, this.tableBody(device, query, format));
  }

  private tableBody(device: DeviceRef, query: TableQueryDto, format: ExportFormat): StreamBody<UplinkRow> {
    const rows = this.reads.rows(device.uid, range(query));
    const wire = (row: UplinkRow) => toUplinkRecordWire(row, device);
    switch (format) {
      case 'json':
        return envelopeBody([], rows, wire, 'Accept');
      case 'ndjson':
        return linesBody(exportHead(device.eui, 'table', format), rows, (row) => ndjsonLine(wire(row)), 'Accept');
      case 'csv':
        return linesBody({ ...exportHead(device.eui, 'table', format), preamble: TABLE_CSV_HEADER }, rows, (row) => tableCsvLine(wire(row)), 'Accept');
    }
  }

  /** Data rows, streamed as JSON, CSV or NDJSON; with `filter`, the requested members (and, in JSON, the meta of docs/api.md §5). */
  async data(principal: AuthPrincipal, eui: Eui, query: DataQueryDto, accept: string | undefined): Promise<StreamBody<unknown>> {
    const format = negotiateExportFormat(query.format, accept);
    const device = await this.device(principal, eui);
    return this.withRetention(device.uid, await this.dataBody(device, query, format));
  }

  private async dataBody(device: DeviceRef, query: DataQueryDto, format: ExportFormat): Promise<StreamBody<unknown>> {
    const window = range(query);
    if (query.filter === undefined) {
      if (format === 'json') {
        // The cache holds the JSON rendering: only a JSON read of the whole history may be served from it.
        const wholeHistory = query.from === undefined && query.to === undefined && query.limit === undefined && window.order === 'asc';
        const cached = wholeHistory ? await this.dataCache.fresh(device.uid) : null;
        if (cached) return { ...envelopeOfJson([], cached.chunks, (json) => json, 'Accept'), size: cached.rows };
        // PostgreSQL writes the rows' JSON (dataJson): the fast uncached read.
        return envelopeOfJson([], this.reads.dataJson(device.uid, window), (json) => json, 'Accept');
      }
      // Rows carry the network position only where there is one; a CSV needs its columns up front.
      const present = new Set(await this.datamodel.aliasesInDeviceData(device.uid));
      const columns = [...DATA_MEMBERS, ...DATA_POSITION_MEMBERS.filter((m) => present.has(m))];
      return this.exportBody(
        device.eui,
        format,
        columns,
        this.reads.dataRows(device.uid, window),
        (row) => toDataRowWire(row) as unknown as Record<string, unknown>,
      );
    }
    const types = await this.datamodel.dataTypes();
    const byAlias = new Map<string, DataTypeRow>(types.map((t) => [t.alias, t]));
    const known = new Set(byAlias.keys());
    const aliases = requireKnownAliases(query.filter, known, 'filter');
    const members: [string, (row: StoredUplink) => number | string | null][] = aliases.map((alias) => [alias, filterMember(alias, known)!]);
    const render = (row: UplinkRow) => toFilteredRowWire(row, members);
    if (format !== 'json') return this.exportBody(device.eui, format, [...FILTERED_MEMBERS, ...aliases], this.reads.rows(device.uid, window), render);
    // Every alias was found in byAlias just above (members), or the read was refused.
    const meta = { data_types: aliases.map((a) => byAlias.get(a)?.uid ?? 0), cache_file_version: await this.cache.version(device.uid) };
    return envelopeBody(meta, this.reads.rows(device.uid, window), render, 'Accept');
  }

  private exportBody<R>(
    eui: string,
    format: Exclude<ExportFormat, 'json'>,
    columns: readonly string[],
    rows: AsyncIterable<R[]>,
    render: (row: R) => Record<string, unknown>,
  ): StreamBody<R> {
    const head = exportHead(eui, 'data', format);
    if (format === 'ndjson') return linesBody(head, rows, (row) => ndjsonLine(render(row)), 'Accept');
    const csv = objectCsv(columns);
    return linesBody({ ...head, preamble: csv.header }, rows, (row) => csv.line(render(row)), 'Accept');
  }

  /** Decodes the newest stored uplink again with the device's current decoder; stores nothing. */
  async test(principal: AuthPrincipal, eui: Eui): Promise<UplinkTestWire> {
    const device = await this.device(principal, eui);
    const latest = await this.reads.latest(device.uid);
    if (!latest) throw ApiException.notFound('uplink of this device');
    const decoder = device.decoderRef === null ? null : await this.datamodel.decoderByUid(device.decoderRef);
    const result = await this.decoding.decodeOne({ accountId: device.ownerId, decoder, payload: latest.payload, port: latest.port });
    return {
      uplink: toUplinkRecordWire(latest, device),
      payload_decoded: result.decoded,
      decoder: decoder?.name ?? 'raw',
      valid: result.valid,
      errors: payloadProblems(result).errors ?? [],
      warnings: payloadProblems(result).warnings ?? [],
    };
  }
}
