import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useUplinkPages } from '../../hooks/uplinks';
import { plural } from '../../lib/format';
import { UplinkRows } from './UplinkRows';

/** Every uplink, newest first, in pages as the table scrolls; the whole history as CSV or NDJSON. */
export function UplinksTab({ eui }: { eui: string }) {
  const pages = useUplinkPages(eui);
  const rows = useMemo(() => {
    const seen = new Set<number>();
    return (pages.data?.pages ?? []).flat().filter((r) => !seen.has(r.uplink.uid) && seen.add(r.uplink.uid));
  }, [pages.data]);
  return (
    <Card
      title="Uplinks"
      id="uplinks"
      actions={
        <div className="actions">
          {/* Same-origin links: the session cookie goes with them and the browser saves the stream as it comes. */}
          <a className="button" href={`/user/device/table/${eui}?format=csv`} download={`${eui}-table.csv`}>
            <Download aria-hidden size={16} /> Export CSV
          </a>
          <a className="button" href={`/user/device/table/${eui}?format=ndjson`} download={`${eui}-table.ndjson`}>
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
    </Card>
  );
}
