import { ALERT_STATE_FILTERS, type AlertStateFilter, type AlertWire } from '@dts/domain';
import { Fragment, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useCan } from '../../api/organisation';
import { SelectField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useAcknowledgeAlert, useAlerts } from '../../hooks/alerts';
import { useAllDevices } from '../../hooks/devices';
import { useNow } from '../../hooks/now';
import { plural, relativeTime, utcText } from '../../lib/format';
import { AlertDetails } from './AlertDetails';

const STATE_LABEL: Record<AlertStateFilter, string> = {
  active: 'Active',
  cleared: 'Cleared',
  acknowledged: 'Acknowledged',
  unacknowledged: 'Not acknowledged',
};

/** The filters as they live in the address bar (the header's bell links to ?state=active). */
function readFilters(search: string): { state: AlertStateFilter | ''; eui: string } {
  const p = new URLSearchParams(search);
  const state = p.get('state') ?? '';
  return { state: (ALERT_STATE_FILTERS as readonly string[]).includes(state) ? (state as AlertStateFilter) : '', eui: (p.get('eui') ?? '').toUpperCase() };
}

export function AlertStateBadge({ alert }: { alert: AlertWire }) {
  return (
    <span className="badge-row">
      {alert.state === 'active' ? <span className="badge badge-bad">active</span> : <span className="badge badge-off">cleared</span>}
      {alert.acknowledged ? <span className="badge badge-info">acknowledged</span> : null}
    </span>
  );
}

/** Alerts, newest first, live: filtered by state and device, paged, acknowledged, each with its history. */
export function AlertsPage() {
  const operator = useCan('operator');
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = readFilters(search);
  const alerts = useAlerts({ ...(filters.state ? { state: filters.state } : {}), ...(filters.eui ? { eui: filters.eui } : {}) });
  const devices = useAllDevices();
  const ack = useAcknowledgeAlert();
  const now = useNow();
  const [open, setOpen] = useState<number | null>(null);
  const list = alerts.data?.alerts ?? [];
  const setFilter = (next: Partial<typeof filters>) => {
    const merged = { ...filters, ...next };
    const p = new URLSearchParams();
    if (merged.state) p.set('state', merged.state);
    if (merged.eui) p.set('eui', merged.eui);
    const text = p.toString();
    navigate(text ? `/alerts?${text}` : '/alerts', { replace: true });
  };
  const label = (eui: string) => devices.data?.find((d) => d.devEUI === eui)?.label || eui;

  return (
    <>
      <PageHeader
        title="Alerts"
        subtitle={
          <>
            What the <Link href="/rules">alert rules</Link> raised, newest first. New alerts and changes appear here as they happen.
          </>
        }
      />
      <Card>
        <div className="toolbar alert-filters">
          <SelectField
            label="State"
            value={filters.state}
            empty="All alerts"
            onChange={(e) => setFilter({ state: e.target.value as AlertStateFilter | '' })}
            options={ALERT_STATE_FILTERS.map((s) => ({ value: s, label: STATE_LABEL[s] }))}
          />
          <SelectField
            label="Device"
            value={filters.eui}
            empty="Every device"
            onChange={(e) => setFilter({ eui: e.target.value })}
            options={(devices.data ?? []).map((d) => ({ value: d.devEUI, label: d.label ? `${d.label} (${d.devEUI})` : d.devEUI }))}
          />
        </div>
      </Card>
      <Card title="Alerts" id="alerts">
        {alerts.isPending ? <Loading what="Loading alerts" /> : null}
        <ErrorBox error={alerts.error ?? ack.error} />
        {alerts.data && list.length === 0 ? (
          <Empty>{filters.state || filters.eui ? 'No alerts match these filters.' : 'No alerts yet. Rules raise them as uplinks arrive.'}</Empty>
        ) : null}
        {list.length > 0 ? (
          <>
            <p className="muted small" role="status">
              {alerts.data?.more ? `${plural(list.length, 'alert')} shown; older ones below.` : plural(list.length, 'alert')}
            </p>
            <div className="table-scroll">
              <table className="data-table static alerts-table stack-table">
                <caption className="sr-only">Alerts</caption>
                <thead>
                  <tr>
                    <th scope="col">Raised (UTC)</th>
                    <th scope="col">Device</th>
                    <th scope="col">Rule</th>
                    <th scope="col">Message</th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((a) => (
                    <Fragment key={a.uid}>
                      <tr data-alert={a.uid} data-state={a.state} className={a.state === 'active' ? 'alert-active' : undefined}>
                        <td data-label="Raised (UTC)" className="nowrap">
                          {utcText(a.raised_unix)}
                          <br />
                          <span className="muted small">{relativeTime(a.raised_unix, now)}</span>
                        </td>
                        <td data-label="Device">
                          <Link href={`/devices/${a.devEUI}`}>{label(a.devEUI)}</Link>
                        </td>
                        <td data-label="Rule" className="wrap">
                          {a.rule.uid === null ? <span className="muted">{a.rule.name} (deleted)</span> : a.rule.name}
                        </td>
                        <td data-label="Message" className="wrap">
                          {a.message}
                        </td>
                        <td data-label="State">
                          <AlertStateBadge alert={a} />
                        </td>
                        <td>
                          <span className="row-actions">
                            <button
                              type="button"
                              className="small"
                              aria-expanded={open === a.uid}
                              aria-controls={`alert-${a.uid}-details`}
                              aria-label={`History of alert ${a.uid}`}
                              onClick={() => setOpen(open === a.uid ? null : a.uid)}
                            >
                              History
                            </button>
                            {operator && !a.acknowledged ? (
                              <button
                                type="button"
                                className="small primary"
                                aria-label={`Acknowledge: ${a.message}`}
                                disabled={ack.isPending && ack.variables === a.uid}
                                onClick={() => ack.mutate(a.uid)}
                              >
                                Acknowledge
                              </button>
                            ) : null}
                          </span>
                        </td>
                      </tr>
                      {open === a.uid ? (
                        <tr id={`alert-${a.uid}-details`} className="details-row">
                          <td colSpan={6}>
                            <AlertDetails alert={a} />
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </div>
            {alerts.hasNextPage ? (
              <p>
                <button type="button" onClick={() => void alerts.fetchNextPage()} disabled={alerts.isFetchingNextPage}>
                  {alerts.isFetchingNextPage ? 'Loading older alerts…' : 'Load older alerts'}
                </button>
              </p>
            ) : null}
          </>
        ) : null}
      </Card>
    </>
  );
}
