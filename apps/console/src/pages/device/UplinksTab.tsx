import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useUplinkPages } from '../../hooks/uplinks';
import { plural, retentionText, utcText } from '../../lib/format';
import { organisationQuery } from '../../api/acting';
import { UplinkRows } from './UplinkRows';

/** Every uplink, newest first, in pages as the table scrolls; the whole history as CSV or NDJSON. */
export function UplinksTab({ eui }: { eui: string }) {
  const pages = useUplinkPages(eui);
  const rows = useMemo(() => {
    const seen = new Set<number>();
    return (pages.data?.pages ?? []).flatMap((p) => p.rows).filter((r) => !seen.has(r.uplink.uid) && seen.add(r.uplink.uid));
  }, [pages.data]);
  // What the newest answer says: the retention changes with the device, not with the page.
  const retention = pages.data?.pages[0]?.retention ?? null;
  return (
    <Card
      title="Uplinks"
      id="uplinks"
      actions={
        <div className="actions">
          {/* Same-origin links: the session cookie goes with them and the browser saves the stream as it comes. */}
          <a className="button" href={`/user/device/table/${eui}?format=csv${organisationQuery('&')}`} download={`${eui}-table.csv`}>
            <Download aria-hidden size={16} /> Export CSV
          </a>
          <a className="button" href={`/user/device/table/${eui}?format=ndjson${organisationQuery('&')}`} download={`${eui}-table.ndjson`}>
            <Download aria-hidden size={16} /> Export NDJSON
          </a>
        </div>
      }
    >
      <ErrorBox error={pages.error} />
      {pages.isPending ? <Loading what="Loading uplinks" /> : null}
      {!pages.isPending && rows.length === 0 ? <p className="empty">No uplink yet.</p> : null}
      {rows.length > 0 ? (
        <UplinkRows
          caption="Uplinks, newest first"
          rows={rows}
          onEndReached={() => {
            if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
          }}
        />
      ) : null}
      <p className="muted small">
        {plural(rows.length, 'uplink')} shown{pages.hasNextPage ? '; scroll for older ones' : ''}.
      </p>
      {retention ? (
        <p className="muted small" data-raw-history-from={retention.raw_history_from_unix ?? ''}>
          {retention.raw_history_from_unix === null
            ? 'Raw uplinks are kept forever.'
            : `Raw uplinks are kept ${retentionText(retention.retention_days)}: those received before ${utcText(retention.raw_history_from_unix)} UTC are removed (the chart’s hourly and daily figures stay).`}
        </p>
      ) : null}
    </Card>
  );
}
