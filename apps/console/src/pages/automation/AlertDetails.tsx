import type { AlertMailOutcomeWire, AlertWire } from '@dts/domain';
import { utcText } from '../../lib/format';

const MAIL_TEXT: Record<AlertMailOutcomeWire['state'], string> = {
  pending: 'waiting to be sent',
  sent: 'sent',
  held: 'held over the hourly limit, for the hour’s digest',
  digested: 'sent in a digest',
  skipped: 'not sent',
};

function mailLine(outcome: AlertMailOutcomeWire): string {
  return outcome.reason ? `${MAIL_TEXT[outcome.state]}: ${outcome.reason}` : MAIL_TEXT[outcome.state];
}

/** What was observed, member by member; `cleared_by` is its own part. */
function Observed({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details).filter(([k]) => k !== 'cleared_by');
  if (entries.length === 0) return null;
  return (
    <dl className="kv small">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k === 'last_uplink_unix' ? 'last uplink (UTC)' : k}</dt>
          <dd className="mono">{k.endsWith('_unix') && typeof v === 'number' ? utcText(v) : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An alert's history: raised, cleared, acknowledged, with what was observed each time and what became of its mails. */
export function AlertDetails({ alert }: { alert: AlertWire }) {
  const clearedBy = alert.details.cleared_by as Record<string, unknown> | undefined;
  return (
    <div className="alert-details">
      <ol className="alert-history">
        <li>
          <strong>Raised</strong> <span className="mono">{utcText(alert.raised_unix)} UTC</span>
          <p>{alert.message}</p>
          <Observed details={alert.details} />
          {alert.mail ? <p className="small">E-mail: {mailLine(alert.mail.raised)}</p> : null}
        </li>
        {alert.acknowledged_unix !== null ? (
          <li>
            <strong>Acknowledged</strong> <span className="mono">{utcText(alert.acknowledged_unix)} UTC</span>
          </li>
        ) : null}
        {alert.cleared_unix !== null ? (
          <li>
            <strong>Cleared</strong> <span className="mono">{utcText(alert.cleared_unix)} UTC</span>
            {clearedBy && typeof clearedBy === 'object' ? <Observed details={clearedBy} /> : null}
            {alert.mail?.cleared ? <p className="small">E-mail: {mailLine(alert.mail.cleared)}</p> : null}
          </li>
        ) : (
          <li>
            <strong>Still active</strong> <span className="muted">until the condition ends</span>
          </li>
        )}
      </ol>
      {alert.mail === null ? <p className="muted small">The rule sends no e-mail.</p> : null}
    </div>
  );
}
