import type { AuditEventWire } from '@dts/domain';
import type { AuditRow } from '@dts/persistence';

export function toAuditEventWire(row: AuditRow): AuditEventWire {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    account_id: row.account_id,
    organisation_id: row.organisation_id,
    username: row.username,
    token_uid: row.token_uid,
    via: row.via,
    action: row.action,
    target: row.target,
    status: row.status,
    result: row.status < 400 ? 'success' : 'failure',
    ip: row.ip,
    request_id: row.request_id,
  };
}

/** The CSV export's columns, in the wire's order. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'account_id',
  'organisation_id',
  'username',
  'token_uid',
  'via',
  'action',
  'target',
  'status',
  'result',
  'ip',
  'request_id',
] as const;
