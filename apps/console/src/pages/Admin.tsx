import type { CacheEntryListMetaWire } from '@dts/domain';
import { useMemo, useState } from 'react';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useAdminInfo, useCacheEntries, useInvalidateCache } from '../hooks/admin';
import { count, duration, num, relativeTime, utcText } from '../lib/format';
import { useNow } from '../hooks/now';
import { i18n, useTranslation } from '../i18n';
import { AdminAccounts } from './AdminAccounts';
import { AdminAudit } from './AuditLog';
import { TableHead } from '../components/TableHead';

const bytes = (n: number) => (n >= 1_048_576 ? `${num(n / 1_048_576, 1)} MiB` : n >= 1024 ? `${num(n / 1024, 1)} KiB` : `${n} B`);

/** The entries' counts by state, as a line ("5 entries: 1 fresh, 4 never built"), in the console's language. */
function entryCountsText(m: CacheEntryListMetaWire): string {
  const parts = [
    m.fresh ? i18n.t('admin.cache.stateFresh', { count: m.fresh }) : '',
    m.stale ? i18n.t('admin.cache.stateStale', { count: m.stale }) : '',
    m.never_built ? i18n.t('admin.cache.stateNever', { count: m.never_built }) : '',
  ].filter(Boolean);
  const entries = i18n.t('admin.cache.entries', { count: m.total });
  return parts.length ? i18n.t('admin.cache.states', { entries, states: parts.join(', ') }) : entries;
}

function Figures() {
  const { t } = useTranslation();
  const info = useAdminInfo();
  const i = info.data;
  // The table below lists every device's entry: the figure counts the same listing (its meta),
  // not the admin summary's "built for the current version" count, which left out never-built ones.
  const cache = useCacheEntries(null).data?.pages[0]?.meta;
  return (
    <>
      <ErrorBox error={info.error} />
      {info.isPending ? <Loading what={t('admin.figures.loading')} /> : null}
      {i ? (
        <>
          <ul className="figures" aria-label={t('admin.figures.label')}>
            <li className="figure">
              <div>
                <span className="figure-value">{count(i.accounts)}</span>
                <span className="figure-label">{t('admin.figures.accounts')}</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value">{count(i.devices)}</span>
                <span className="figure-label">{t('admin.figures.devices')}</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value">
                  {i.uplinks_estimated ? '≈' : ''}
                  {count(i.uplinks)}
                </span>
                <span className="figure-label">{t('admin.figures.uplinks')}</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value" data-cache-entries={cache?.total}>
                  {cache ? count(cache.total) : '–'}
                </span>
                <span className="figure-label">
                  {cache
                    ? t('admin.figures.cacheEntriesStates', { fresh: cache.fresh, stale: cache.stale, never: cache.never_built })
                    : t('admin.figures.cacheEntries')}
                </span>
              </div>
            </li>
          </ul>
          <div className="device-grid">
            <Card title={t('admin.service.title')} id="service">
              <dl className="facts">
                <div className="fact">
                  <dt>{t('admin.service.version')}</dt>
                  <dd>{i.version}</dd>
                </div>
                <div className="fact">
                  <dt>{t('admin.service.uptime')}</dt>
                  <dd>{duration(i.uptime_s)}</dd>
                </div>
                <div className="fact">
                  <dt>{t('admin.service.database')}</dt>
                  <dd>
                    {t('admin.service.databaseText', {
                      kind: i.database.kind,
                      version: i.database.server_version,
                      size: bytes(i.database.size_bytes),
                      total: i.database.pool.total,
                      idle: i.database.pool.idle,
                      waiting: i.database.pool.waiting,
                    })}
                  </dd>
                </div>
                <div className="fact">
                  <dt>{t('admin.service.cache')}</dt>
                  <dd>
                    {i.cache.backend}, {bytes(i.cache.bytes)}
                  </dd>
                </div>
              </dl>
            </Card>
            <Card title={t('admin.queues.title')} id="queues">
              <table className="data-table static">
                <TableHead caption={t('admin.queues.caption')} columns={[t('admin.queues.queue'), { label: t('admin.queues.jobs'), className: 'num' }]} />
                <tbody>
                  {Object.entries(i.queues).map(([queue, depth]) => (
                    <tr key={queue} data-queue={queue}>
                      <td className="mono">{queue}</td>
                      <td className="num">{count(depth)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          </div>
        </>
      ) : null}
    </>
  );
}

function CacheEntries() {
  const { t } = useTranslation();
  const [stale, setStale] = useState<boolean | null>(null);
  const entries = useCacheEntries(stale);
  const invalidate = useInvalidateCache();
  const now = useNow();
  const rows = useMemo(() => entries.data?.pages.flatMap((p) => p.entries) ?? [], [entries.data]);
  const counts = entries.data?.pages[0]?.meta;
  return (
    <Card
      title={t('admin.cache.title')}
      id="cache"
      actions={
        <button type="button" className="small" onClick={() => invalidate.mutate('all')} disabled={invalidate.isPending}>
          {t('admin.cache.invalidateAll')}
        </button>
      }
    >
      <div className="toolbar">
        <SelectField
          label={t('admin.cache.filter')}
          value={stale === null ? '' : String(stale)}
          empty={t('admin.cache.all')}
          options={[
            { value: 'true', label: t('admin.cache.staleOrNever') },
            { value: 'false', label: t('admin.cache.fresh') },
          ]}
          onChange={(e) => setStale(e.target.value === '' ? null : e.target.value === 'true')}
        />
      </div>
      {counts ? (
        <p className="muted small" data-cache-listed={counts.total}>
          {rows.length < counts.total
            ? t('admin.cache.listedPartly', { counts: entryCountsText(counts), loaded: rows.length })
            : t('admin.cache.listed', { counts: entryCountsText(counts) })}
        </p>
      ) : null}
      <ErrorBox error={entries.error ?? invalidate.error} />
      {invalidate.isSuccess ? (
        <p className="notice" role="status">
          {'devices' in invalidate.data
            ? t('admin.cache.invalidatedAll', { count: invalidate.data.devices })
            : t('admin.cache.invalidatedOne', { eui: invalidate.data.devEUI, version: invalidate.data.version })}
        </p>
      ) : null}
      {entries.isPending ? (
        <Loading what={t('admin.cache.loading')} />
      ) : (
        <DataTable
          caption={t('admin.cache.caption')}
          columns={[
            { key: 'eui', header: t('admin.cache.columns.device'), render: (e) => <span className="mono">{e.devEUI}</span> },
            { key: 'label', header: t('admin.cache.columns.label'), render: (e) => e.label },
            { key: 'owner', header: t('admin.cache.columns.owner'), render: (e) => e.owner },
            { key: 'version', header: t('admin.cache.columns.version'), className: 'num', render: (e) => e.version },
            { key: 'rows', header: t('admin.cache.columns.rows'), className: 'num', render: (e) => count(e.rows) },
            { key: 'bytes', header: t('admin.cache.columns.size'), className: 'num', render: (e) => bytes(e.bytes) },
            {
              key: 'built',
              header: t('admin.cache.columns.built'),
              render: (e) => (e.built_unix ? <span title={utcText(e.built_unix)}>{relativeTime(e.built_unix, now)}</span> : t('admin.cache.never')),
            },
            {
              key: 'state',
              header: t('admin.cache.columns.state'),
              render: (e) =>
                e.built_unix === null ? (
                  <span className="badge badge-off">{t('admin.cache.neverBuilt')}</span>
                ) : (
                  <span className={`badge ${e.stale ? 'badge-off' : 'badge-ok'}`}>{e.stale ? t('admin.cache.stale') : t('admin.cache.freshBadge')}</span>
                ),
            },
            {
              key: 'do',
              header: t('admin.cache.columns.action'),
              render: (e) => (
                <button
                  type="button"
                  className="small"
                  onClick={() => invalidate.mutate(e.devEUI)}
                  disabled={invalidate.isPending}
                  aria-label={t('admin.cache.invalidateOne', { eui: e.devEUI })}
                >
                  {t('admin.cache.invalidate')}
                </button>
              ),
            },
          ]}
          rows={rows}
          rowKey={(e) => e.devEUI}
          maxHeight="50vh"
          onEndReached={() => {
            if (entries.hasNextPage && !entries.isFetchingNextPage) void entries.fetchNextPage();
          }}
        />
      )}
    </Card>
  );
}

/** For administrators: the service's figures and queues, every account's limits and access, the audit log, every device's cache entry. */
export function AdminPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('admin.title')} subtitle={t('admin.subtitle')} />
      <Figures />
      <AdminAccounts />
      <AdminAudit />
      <CacheEntries />
    </>
  );
}
