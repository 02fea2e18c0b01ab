import type { CacheEntryListMetaWire } from '@dts/domain';
import { useMemo, useState } from 'react';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useAdminInfo, useCacheEntries, useInvalidateCache } from '../hooks/admin';
import { duration, num, plural, relativeTime, utcText } from '../lib/format';
import { useNow } from '../hooks/now';
import { AdminAccounts } from './AdminAccounts';
import { AdminAudit } from './AuditLog';

const bytes = (n: number) => (n >= 1_048_576 ? `${num(n / 1_048_576, 1)} MiB` : n >= 1024 ? `${num(n / 1024, 1)} KiB` : `${n} B`);

/** The entries' counts by state, as a line ("5 entries: 1 fresh, 4 never built"). */
function entryCountsText(m: CacheEntryListMetaWire): string {
  const parts = [
    m.fresh ? `${m.fresh.toLocaleString('en')} fresh` : '',
    m.stale ? `${m.stale.toLocaleString('en')} stale` : '',
    m.never_built ? `${m.never_built.toLocaleString('en')} never built` : '',
  ].filter(Boolean);
  return `${plural(m.total, 'entry', 'entries')}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

function Figures() {
  const info = useAdminInfo();
  const i = info.data;
  // The table below lists every device's entry: the figure counts the same listing (its meta),
  // not the admin summary's "built for the current version" count, which left out never-built ones.
  const cache = useCacheEntries(null).data?.pages[0]?.meta;
  return (
    <>
      <ErrorBox error={info.error} />
      {info.isPending ? <Loading what="Loading the figures" /> : null}
      {i ? (
        <>
          <ul className="figures" aria-label="Service figures">
            <li className="figure">
              <div>
                <span className="figure-value">{i.accounts}</span>
                <span className="figure-label">Accounts</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value">{i.devices}</span>
                <span className="figure-label">Devices</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value">
                  {i.uplinks_estimated ? '≈' : ''}
                  {i.uplinks}
                </span>
                <span className="figure-label">Uplinks</span>
              </div>
            </li>
            <li className="figure">
              <div>
                <span className="figure-value" data-cache-entries={cache?.total}>
                  {cache ? cache.total.toLocaleString('en') : '–'}
                </span>
                <span className="figure-label">
                  Cache entries
                  {cache
                    ? ` (${cache.fresh.toLocaleString('en')} fresh, ${cache.stale.toLocaleString('en')} stale, ${cache.never_built.toLocaleString('en')} never built)`
                    : ''}
                </span>
              </div>
            </li>
          </ul>
          <div className="device-grid">
            <Card title="Service" id="service">
              <dl className="facts">
                <div className="fact">
                  <dt>Version</dt>
                  <dd>{i.version}</dd>
                </div>
                <div className="fact">
                  <dt>Up for</dt>
                  <dd>{duration(i.uptime_s)}</dd>
                </div>
                <div className="fact">
                  <dt>Database</dt>
                  <dd>
                    {i.database.kind} {i.database.server_version}, {bytes(i.database.size_bytes)}; pool {i.database.pool.total} open, {i.database.pool.idle}{' '}
                    idle, {i.database.pool.waiting} waiting
                  </dd>
                </div>
                <div className="fact">
                  <dt>Data cache</dt>
                  <dd>
                    {i.cache.backend}, {bytes(i.cache.bytes)}
                  </dd>
                </div>
              </dl>
            </Card>
            <Card title="Queues" id="queues">
              <table className="data-table static">
                <caption className="sr-only">Jobs waiting, delayed or running per queue</caption>
                <thead>
                  <tr>
                    <th scope="col">Queue</th>
                    <th scope="col" className="num">
                      Jobs
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(i.queues).map(([queue, depth]) => (
                    <tr key={queue} data-queue={queue}>
                      <td className="mono">{queue}</td>
                      <td className="num">{depth}</td>
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
  const [stale, setStale] = useState<boolean | null>(null);
  const entries = useCacheEntries(stale);
  const invalidate = useInvalidateCache();
  const now = useNow();
  const rows = useMemo(() => entries.data?.pages.flatMap((p) => p.entries) ?? [], [entries.data]);
  const counts = entries.data?.pages[0]?.meta;
  return (
    <Card
      title="Data cache per device"
      id="cache"
      actions={
        <button type="button" className="small" onClick={() => invalidate.mutate('all')} disabled={invalidate.isPending}>
          Invalidate all
        </button>
      }
    >
      <div className="toolbar">
        <SelectField
          label="Entries"
          value={stale === null ? '' : String(stale)}
          empty="All"
          options={[
            { value: 'true', label: 'Stale or never built' },
            { value: 'false', label: 'Fresh' },
          ]}
          onChange={(e) => setStale(e.target.value === '' ? null : e.target.value === 'true')}
        />
      </div>
      {counts ? (
        <p className="muted small" data-cache-listed={counts.total}>
          {entryCountsText(counts)}
          {rows.length < counts.total ? ` (${rows.length.toLocaleString('en')} loaded; scroll for more)` : ''}.
        </p>
      ) : null}
      <ErrorBox error={entries.error ?? invalidate.error} />
      {invalidate.isSuccess ? (
        <p className="notice" role="status">
          {'devices' in invalidate.data
            ? `${plural(invalidate.data.devices, 'entry', 'entries')} invalidated; the worker rebuilds ${invalidate.data.devices === 1 ? 'it' : 'them'}.`
            : `${invalidate.data.devEUI} invalidated (version ${invalidate.data.version}); the worker rebuilds it.`}
        </p>
      ) : null}
      {entries.isPending ? (
        <Loading what="Loading cache entries" />
      ) : (
        <DataTable
          caption="Cache entries"
          columns={[
            { key: 'eui', header: 'Device', render: (e) => <span className="mono">{e.devEUI}</span> },
            { key: 'label', header: 'Label', render: (e) => e.label },
            { key: 'owner', header: 'Owner', render: (e) => e.owner },
            { key: 'version', header: 'Version', className: 'num', render: (e) => e.version },
            { key: 'rows', header: 'Rows', className: 'num', render: (e) => e.rows },
            { key: 'bytes', header: 'Size', className: 'num', render: (e) => bytes(e.bytes) },
            {
              key: 'built',
              header: 'Built',
              render: (e) => (e.built_unix ? <span title={utcText(e.built_unix)}>{relativeTime(e.built_unix, now)}</span> : 'never'),
            },
            {
              key: 'state',
              header: 'State',
              render: (e) =>
                e.built_unix === null ? (
                  <span className="badge badge-off">never built</span>
                ) : (
                  <span className={`badge ${e.stale ? 'badge-off' : 'badge-ok'}`}>{e.stale ? 'stale' : 'fresh'}</span>
                ),
            },
            {
              key: 'do',
              header: 'Action',
              render: (e) => (
                <button
                  type="button"
                  className="small"
                  onClick={() => invalidate.mutate(e.devEUI)}
                  disabled={invalidate.isPending}
                  aria-label={`Invalidate ${e.devEUI}`}
                >
                  Invalidate
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
  return (
    <>
      <PageHeader title="Administration" subtitle="The service as a whole: only administrators see this page." />
      <Figures />
      <AdminAccounts />
      <AdminAudit />
      <CacheEntries />
    </>
  );
}
