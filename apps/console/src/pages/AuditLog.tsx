import type { AuditEventWire, AuditQuery, AuditResult } from '@dts/domain';
import { type FormEvent, useMemo, useState } from 'react';
import { type Column, DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/form';
import { Card, ErrorBox, Loading } from '../components/ui';
import { useAudit } from '../hooks/admin';
import { useOrganisationAudit } from '../hooks/organisations';

type Filter = Omit<AuditQuery, 'cursor' | 'format' | 'limit'>;

/** The filter as the route takes it: empty fields left out. */
function filterOf(form: { username: string; action: string; result: string }): Filter {
  return {
    ...(form.username.trim() ? { username: form.username.trim() } : {}),
    ...(form.action.trim() ? { action: form.action.trim() } : {}),
    ...(form.result ? { result: form.result as AuditResult } : {}),
  };
}

const columns: Column<AuditEventWire>[] = [
  { key: 'at', header: 'When (UTC)', render: (e) => <time dateTime={e.at}>{e.at.replace('T', ' ').slice(0, 19)}</time> },
  { key: 'who', header: 'Who', render: (e) => (e.username ?? '–') + (e.via === 'token' ? ` (token ${e.token_uid})` : '') },
  { key: 'action', header: 'Action', render: (e) => <span className="mono small">{e.action}</span> },
  {
    key: 'target',
    header: 'On',
    render: (e) => (
      <span className="mono small">
        {Object.entries(e.target)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || '–'}
      </span>
    ),
  },
  {
    key: 'result',
    header: 'Result',
    render: (e) => (
      <span className={`badge ${e.result === 'success' ? 'badge-ok' : 'badge-bad'}`} data-status={e.status}>
        {e.status}
      </span>
    ),
  },
  { key: 'ip', header: 'Address', render: (e) => <span className="mono small">{e.ip ?? '–'}</span> },
];

type AuditQueryState = ReturnType<typeof useAudit>;

/** Every state-changing call and sign-in of the platform, newest first, filtered (administrators). */
export function AdminAudit() {
  const [filter, setFilter] = useState<Filter>({});
  return <AuditLogCard audit={useAudit(filter)} csvPath="/admin/audit" filter={filter} onFilter={setFilter} example="/admin/" />;
}

/** The calls made in an organisation (its admins and owners), newest first, filtered. */
export function OrganisationAudit({ uid }: { uid: number }) {
  const [filter, setFilter] = useState<Filter>({});
  return <AuditLogCard audit={useOrganisationAudit(uid, filter)} csvPath={`/org/${uid}/audit`} filter={filter} onFilter={setFilter} example="/user/device/" />;
}

/** The audit log's records, newest first, with filters; the same filter as a CSV download. */
function AuditLogCard({
  audit,
  csvPath,
  filter,
  onFilter,
  example,
}: {
  audit: AuditQueryState;
  csvPath: string;
  filter: Filter;
  onFilter: (f: Filter) => void;
  /** The action filter's placeholder: a path worth narrowing by here. */
  example: string;
}) {
  const [form, setForm] = useState({ username: '', action: '', result: '' });
  const rows = useMemo(() => audit.data?.pages.flatMap((p) => p.events) ?? [], [audit.data]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilter(filterOf(form));
  };
  const csv = `${csvPath}?${new URLSearchParams({ ...(filter as Record<string, string>), format: 'csv' }).toString()}`;
  return (
    <Card
      title="Audit log"
      id="audit"
      actions={
        <a className="button small" href={csv} download>
          Download CSV
        </a>
      }
    >
      <form className="toolbar inline-form" role="search" aria-label="Filter the audit log" onSubmit={submit}>
        <TextField label="Account or sign-in name" value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
        <TextField label="Action contains" placeholder={example} value={form.action} onChange={(e) => setForm({ ...form, action: e.target.value })} />
        <SelectField
          label="Result"
          value={form.result}
          empty="Any"
          options={[
            { value: 'success', label: 'Succeeded' },
            { value: 'failure', label: 'Refused or failed' },
          ]}
          onChange={(e) => setForm({ ...form, result: e.target.value })}
        />
        <button type="submit" className="small">
          Filter
        </button>
      </form>
      <ErrorBox error={audit.error} />
      {audit.isPending ? (
        <Loading what="Loading the audit log" />
      ) : (
        <DataTable
          caption="Audit log"
          columns={columns}
          rows={rows}
          rowKey={(e) => e.id}
          maxHeight="50vh"
          onEndReached={() => {
            if (audit.hasNextPage && !audit.isFetchingNextPage) void audit.fetchNextPage();
          }}
        />
      )}
    </Card>
  );
}
