import type { AuditEventWire, AuditQuery, AuditResult } from '@dts/domain';
import type { TFunction } from 'i18next';
import { type FormEvent, useMemo, useState } from 'react';
import { type Column, DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/form';
import { Card, ErrorBox, Loading } from '../components/ui';
import { useAudit } from '../hooks/admin';
import { useOrganisationAudit } from '../hooks/organisations';
import { useTranslation } from '../i18n';

type Filter = Omit<AuditQuery, 'cursor' | 'format' | 'limit'>;

/** The filter as the route takes it: empty fields left out. */
function filterOf(form: { username: string; action: string; result: string }): Filter {
  return {
    ...(form.username.trim() ? { username: form.username.trim() } : {}),
    ...(form.action.trim() ? { action: form.action.trim() } : {}),
    ...(form.result ? { result: form.result as AuditResult } : {}),
  };
}

const columnsOf = (t: TFunction): Column<AuditEventWire>[] => [
  { key: 'at', header: t('audit.columns.at'), render: (e) => <time dateTime={e.at}>{e.at.replace('T', ' ').slice(0, 19)}</time> },
  {
    key: 'who',
    header: t('audit.columns.who'),
    render: (e) => (e.via === 'token' ? t('audit.viaToken', { who: e.username ?? '–', token: e.token_uid }) : (e.username ?? '–')),
  },
  { key: 'action', header: t('audit.columns.action'), render: (e) => <span className="mono small">{e.action}</span> },
  {
    key: 'target',
    header: t('audit.columns.target'),
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
    header: t('audit.columns.result'),
    render: (e) => (
      <span className={`badge ${e.result === 'success' ? 'badge-ok' : 'badge-bad'}`} data-status={e.status}>
        {e.status}
      </span>
    ),
  },
  { key: 'ip', header: t('audit.columns.ip'), render: (e) => <span className="mono small">{e.ip ?? '–'}</span> },
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
  const { t } = useTranslation();
  const columns = useMemo(() => columnsOf(t), [t]);
  const [form, setForm] = useState({ username: '', action: '', result: '' });
  const rows = useMemo(() => audit.data?.pages.flatMap((p) => p.events) ?? [], [audit.data]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilter(filterOf(form));
  };
  const csv = `${csvPath}?${new URLSearchParams({ ...(filter as Record<string, string>), format: 'csv' }).toString()}`;
  return (
    <Card
      title={t('audit.title')}
      id="audit"
      actions={
        <a className="button small" href={csv} download>
          {t('audit.download')}
        </a>
      }
    >
      <form className="toolbar inline-form" role="search" aria-label={t('audit.filter.label')} onSubmit={submit}>
        <TextField label={t('audit.filter.username')} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
        <TextField label={t('audit.filter.action')} placeholder={example} value={form.action} onChange={(e) => setForm({ ...form, action: e.target.value })} />
        <SelectField
          label={t('audit.filter.result')}
          value={form.result}
          empty={t('audit.filter.any')}
          options={[
            { value: 'success', label: t('audit.filter.success') },
            { value: 'failure', label: t('audit.filter.failure') },
          ]}
          onChange={(e) => setForm({ ...form, result: e.target.value })}
        />
        <button type="submit" className="small">
          {t('audit.filter.submit')}
        </button>
      </form>
      <ErrorBox error={audit.error} />
      {audit.isPending ? (
        <Loading what={t('audit.loading')} />
      ) : (
        <DataTable
          caption={t('audit.title')}
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
