import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useUplinkPages } from '../../hooks/uplinks';
import { useTranslation } from '../../i18n';
import { utcText } from '../../lib/format';
import { organisationQuery } from '../../api/acting';
import { UplinkRows } from './UplinkRows';

/** Every uplink, newest first, in pages as the table scrolls; the whole history as CSV or NDJSON. */
export function UplinksTab({ eui }: { eui: string }) {
  const { t } = useTranslation();
  const pages = useUplinkPages(eui);
  const rows = useMemo(() => {
    const seen = new Set<number>();
    return (pages.data?.pages ?? []).flatMap((p) => p.rows).filter((r) => !seen.has(r.uplink.uid) && seen.add(r.uplink.uid));
  }, [pages.data]);
  // What the newest answer says: the retention changes with the device, not with the page.
  const retention = pages.data?.pages[0]?.retention ?? null;
  return (
    <Card
      title={t('device.uplinks.title')}
      id="uplinks"
      actions={
        <div className="actions">
          {/* Same-origin links: the session cookie goes with them and the browser saves the stream as it comes. */}
          <a className="button" href={`/user/device/table/${eui}?format=csv${organisationQuery('&')}`} download={`${eui}-table.csv`}>
            <Download aria-hidden size={16} /> {t('device.uplinks.exportCsv')}
          </a>
          <a className="button" href={`/user/device/table/${eui}?format=ndjson${organisationQuery('&')}`} download={`${eui}-table.ndjson`}>
            <Download aria-hidden size={16} /> {t('device.uplinks.exportNdjson')}
          </a>
        </div>
      }
    >
      <ErrorBox error={pages.error} />
      {pages.isPending ? <Loading what={t('device.uplinks.loading')} /> : null}
      {!pages.isPending && rows.length === 0 ? <p className="empty">{t('device.uplinks.empty')}</p> : null}
      {rows.length > 0 ? (
        <UplinkRows
          caption={t('device.uplinks.caption')}
          rows={rows}
          onEndReached={() => {
            if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
          }}
        />
      ) : null}
      <p className="muted small">{t(pages.hasNextPage ? 'device.uplinks.shownMore' : 'device.uplinks.shown', { count: rows.length })}</p>
      {retention ? (
        <p className="muted small" data-raw-history-from={retention.raw_history_from_unix ?? ''}>
          {retention.raw_history_from_unix === null
            ? t('device.uplinks.keptForever')
            : t('device.uplinks.kept', {
                kept: retention.retention_days === null ? t('device.retention.forever') : t('device.retention.days', { count: retention.retention_days }),
                from: utcText(retention.raw_history_from_unix),
              })}
        </p>
      ) : null}
    </Card>
  );
}
