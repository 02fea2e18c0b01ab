import { Bell, BellRing } from 'lucide-react';
import { Link } from 'wouter';
import { useActiveAlerts } from '../hooks/alerts';
import { useTranslation } from '../i18n';
import { count as countText } from '../lib/format';

/**
 * The header's bell: a link to the active alerts with their count, live (alerts raised and cleared
 * arrive through the live feed). Quiet when nothing is active; while the count is unknown (loading,
 * or the call failed) it says nothing rather than a wrong zero.
 */
export function ActiveAlertsIndicator() {
  const { t } = useTranslation();
  const active = useActiveAlerts();
  const list = active.data;
  if (!list) return null;
  const count = list.alerts.length;
  if (count === 0)
    return (
      <Link href="/alerts?state=active" className="alerts-indicator alerts-quiet" aria-label={t('shell.alerts.none')} title={t('shell.alerts.none')}>
        <Bell aria-hidden size={18} />
      </Link>
    );
  const label = list.more ? t('shell.alerts.more') : t('shell.alerts.count', { count });
  return (
    <Link href="/alerts?state=active" className="alerts-indicator alerts-raised" aria-label={label} title={label}>
      <BellRing aria-hidden size={18} />
      <span className="alerts-count" aria-hidden>
        {list.more ? '1000+' : countText(count)}
      </span>
    </Link>
  );
}
