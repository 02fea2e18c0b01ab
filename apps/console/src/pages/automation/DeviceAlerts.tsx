import { BellRing } from 'lucide-react';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { ErrorBox } from '../../components/ui';
import { useAcknowledgeAlert, useActiveAlerts } from '../../hooks/alerts';
import { useNow } from '../../hooks/now';
import { useTranslation } from '../../i18n';
import { relativeTime } from '../../lib/format';

/**
 * The device's active alerts, over its tabs: live (raised and cleared through the live feed), each
 * acknowledgeable by those who may. Nothing when none is active.
 */
export function DeviceAlerts({ eui }: { eui: string }) {
  const { t } = useTranslation();
  const active = useActiveAlerts(eui);
  const ack = useAcknowledgeAlert();
  const operator = useCan('operator');
  const now = useNow();
  const list = active.data?.alerts ?? [];
  if (list.length === 0) return null;
  return (
    <section className="device-alerts" aria-labelledby="device-alerts-title">
      <h2 id="device-alerts-title">
        <BellRing aria-hidden size={18} /> {t('alerts.device.title', { count: list.length })}
      </h2>
      <ul>
        {list.slice(0, 5).map((a) => (
          <li key={a.uid} data-alert={a.uid}>
            <span>
              {a.message}{' '}
              <span className="muted small">
                · {a.rule.name} · {t('alerts.device.raised', { when: relativeTime(a.raised_unix, now) })}
              </span>
            </span>
            {a.acknowledged ? (
              <span className="badge badge-info">{t('alerts.badge.acknowledged')}</span>
            ) : operator ? (
              <button
                type="button"
                className="small"
                aria-label={t('alerts.acknowledgeLabel', { message: a.message })}
                disabled={ack.isPending}
                onClick={() => ack.mutate(a.uid)}
              >
                {t('alerts.acknowledge')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorBox error={ack.error} />
      <Link href={`/alerts?eui=${eui}`}>{list.length > 5 ? t('alerts.device.seeAll') : t('alerts.device.thisDevice')}</Link>
    </section>
  );
}
