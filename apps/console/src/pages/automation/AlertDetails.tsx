import type { AlertMailOutcomeWire, AlertWire } from '@dts/domain';
import type { TFunction } from 'i18next';
import { useTranslation } from '../../i18n';
import { utcText } from '../../lib/format';

function mailLine(t: TFunction, outcome: AlertMailOutcomeWire): string {
  const state = t(`alerts.details.mail.${outcome.state}`);
  return outcome.reason ? t('alerts.details.withReason', { outcome: state, reason: outcome.reason }) : state;
}

/** What was observed, member by member; `cleared_by` is its own part. */
function Observed({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation();
  const entries = Object.entries(details).filter(([k]) => k !== 'cleared_by');
  if (entries.length === 0) return null;
  return (
    <dl className="kv small">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k === 'last_uplink_unix' ? t('alerts.details.lastUplink') : k}</dt>
          <dd className="mono">{k.endsWith('_unix') && typeof v === 'number' ? utcText(v) : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An alert's history: raised, cleared, acknowledged, with what was observed each time and what became of its mails. */
export function AlertDetails({ alert }: { alert: AlertWire }) {
  const { t } = useTranslation();
  const clearedBy = alert.details.cleared_by as Record<string, unknown> | undefined;
  return (
    <div className="alert-details">
      <ol className="alert-history">
        <li>
          <strong>{t('alerts.details.raised')}</strong> <span className="mono">{utcText(alert.raised_unix)} UTC</span>
          <p>{alert.message}</p>
          <Observed details={alert.details} />
          {alert.mail ? <p className="small">{t('alerts.details.email', { outcome: mailLine(t, alert.mail.raised) })}</p> : null}
        </li>
        {alert.acknowledged_unix !== null ? (
          <li>
            <strong>{t('alerts.details.acknowledged')}</strong> <span className="mono">{utcText(alert.acknowledged_unix)} UTC</span>
          </li>
        ) : null}
        {alert.cleared_unix !== null ? (
          <li>
            <strong>{t('alerts.details.cleared')}</strong> <span className="mono">{utcText(alert.cleared_unix)} UTC</span>
            {clearedBy && typeof clearedBy === 'object' ? <Observed details={clearedBy} /> : null}
            {alert.mail?.cleared ? <p className="small">{t('alerts.details.email', { outcome: mailLine(t, alert.mail.cleared) })}</p> : null}
          </li>
        ) : (
          <li>
            <strong>{t('alerts.details.stillActive')}</strong> <span className="muted">{t('alerts.details.untilConditionEnds')}</span>
          </li>
        )}
      </ol>
      {alert.mail === null ? <p className="muted small">{t('alerts.details.noEmail')}</p> : null}
    </div>
  );
}
