import { Injectable } from '@nestjs/common';
import type { AuditEventWire } from '@dts/domain';
import { type AuditFilter, type AuditKey, AuditRepository } from '@dts/persistence';
import { AuditLog } from '../../common/audit/audit-log';
import { ApiResult } from '../../common/http/api-result';
import { ApiException } from '../../common/http/api.exception';
import { badCursor, cursorValues, encodeCursor } from '../../common/http/page-cursor';
import { csvLine } from '../../common/http/stream-lines';
import { linesBody, type StreamBody } from '../../common/http/stream-body';
import { AUDIT_CSV_COLUMNS, toAuditEventWire } from './audit.mapper';
import type { AuditQueryDto } from './dto/audit.dto';

/** An audit page's cursor: the last record's time (PostgreSQL's text of it) and id. */
function decodeCursor(cursor: string): AuditKey {
  const [at, id] = cursorValues(cursor, 2);
  if (typeof at !== 'string' || at.length > 40 || !Number.isFinite(Date.parse(at)) || typeof id !== 'string' || !/^\d{1,19}$/.test(id)) throw badCursor();
  return { at, id };
}

/**
 * The audit log, read: platform-wide by administrators (GET /admin/audit), one organisation's by
 * its owners and admins (GET /org/{uid}/audit, `organisationId` set: no filter of the query can
 * reach past it). docs/api.md §8, §20.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly log: AuditLog,
  ) {}

  async page(query: AuditQueryDto, organisationId?: number): Promise<ApiResult<AuditEventWire[]>> {
    const limit = query.limit ?? 100;
    // Read your own writes: what this instance still holds (at most AUDIT_FLUSH_MS old) is written
    // first, so an administrator who has just acted sees it in the log at once. Holding nothing,
    // this costs nothing; other instances' records follow within their own flush.
    await this.log.flush();
    const rows = await this.audit.page(this.filter(query, organisationId), limit + 1, query.cursor === undefined ? null : decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const next = rows.length > limit && last ? encodeCursor([last.at_key, last.id]) : null;
    return new ApiResult(page.map(toAuditEventWire), { meta: { next_cursor: next } });
  }

  /** Every record that matches, newest first, as CSV. */
  csv(query: AuditQueryDto, organisationId?: number): StreamBody<AuditEventWire> {
    if (query.limit !== undefined) throw ApiException.validation('limit', 'limit pages the JSON answer; the CSV export has every record that matches');
    if (query.cursor !== undefined) throw ApiException.validation('cursor', 'cursor pages the JSON answer; the CSV export has every record that matches');
    const filter = this.filter(query, organisationId);
    const { audit, log } = this;
    async function* rows(): AsyncGenerator<AuditEventWire[]> {
      await log.flush(); // as page() does
      for await (const batch of audit.all(filter)) yield batch.map(toAuditEventWire);
    }
    return linesBody({ contentType: 'text/csv', filename: 'audit.csv', preamble: csvLine(AUDIT_CSV_COLUMNS) }, rows(), (event) =>
      csvLine(AUDIT_CSV_COLUMNS.map((column) => event[column])),
    );
  }

  private filter(query: AuditQueryDto, organisationId: number | undefined): AuditFilter {
    if (query.from !== undefined && query.to !== undefined && query.from >= query.to) throw ApiException.validation('to', 'to must be after from');
    return {
      accountId: query.account_id,
      organisationId,
      username: query.username,
      action: query.action,
      result: query.result,
      from: query.from === undefined ? undefined : new Date(query.from * 1000),
      to: query.to === undefined ? undefined : new Date(query.to * 1000),
    };
  }
}
