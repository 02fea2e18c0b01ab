import { ALERT_STATE_FILTERS, type AlertStateFilter, type AlertWire } from '@dts/domain';
import { Fragment, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useCan } from '../../api/organisation';
import { SelectField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useAcknowledgeAlert, useAlerts } from '../../hooks/alerts';
import { useAllDevices } from '../../hooks/devices';
import { useNow } from '../../hooks/now';
import { useTranslation } from '../../i18n';
import { relativeTime, utcText } from '../../lib/format';
import { AlertDetails } from './AlertDetails';
import { TableHead } from '../../components/TableHead';

/** The filters as they live in the address bar (the header's bell links to ?state=active). */
function readFilters(search: string): { state: AlertStateFilter | ''; eui: string } {
  const p = new URLSearchParams(search);
  const state = p.get('state') ?? '';
  return { state: (ALERT_STATE_FILTERS as readonly string[]).includes(state) ? (state as AlertStateFilter) : '', eui: (p.get('eui') ?? '').toUpperCase() };
}

export function AlertStateBadge({ alert }: { alert: AlertWire }) {
  const { t } = useTranslation();
  return (
    <span className="badge-row">
      {alert.state === 'active' ? (
        <span className="badge badge-bad">{t('alerts.badge.active')}</span>
      ) : (
        <span className="badge badge-off">{t('alerts.badge.cleared')}</span>
      )}
      {alert.acknowledged ? <span className="badge badge-info">{t('alerts.badge.acknowledged')}</span> : null}
    </span>
  );
}

/** Alerts, newest first, live: filtered by state and device, paged, acknowledged, each with its history. */
export function AlertsPage() {
  const { t } = useTranslation();
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
      <PageHeader title={t('alerts.title')} subtitle={<Trans t={t} i18nKey="alerts.subtitle" components={{ rules: <Link href="/rules" /> }} />} />
      <Card>
        <div className="toolbar alert-filters">
          <SelectField
            label={t('alerts.filters.state')}
            value={filters.state}
            empty={t('alerts.filters.allAlerts')}
            onChange={(e) => setFilter({ state: e.target.value as AlertStateFilter | '' })}
            options={ALERT_STATE_FILTERS.map((s) => ({ value: s, label: t(`alerts.state.${s}`) }))}
          />
          <SelectField
            label={t('alerts.filters.device')}
            value={filters.eui}
            empty={t('alerts.filters.everyDevice')}
            onChange={(e) => setFilter({ eui: e.target.value })}
            options={(devices.data ?? []).map((d) => ({ value: d.devEUI, label: d.label ? `${d.label} (${d.devEUI})` : d.devEUI }))}
          />
        </div>
      </Card>
      <Card title={t('alerts.title')} id="alerts">
        {alerts.isPending ? <Loading what={t('alerts.loading')} /> : null}
        <ErrorBox error={alerts.error ?? ack.error} />
        {alerts.data && list.length === 0 ? <Empty>{filters.state || filters.eui ? t('alerts.noMatch') : t('alerts.none')}</Empty> : null}
        {list.length > 0 ? (
          <>
            <p className="muted small" role="status">
              {alerts.data?.more ? t('alerts.shownMore', { count: list.length }) : t('alerts.shown', { count: list.length })}
            </p>
            <div className="table-scroll">
              <table className="data-table static alerts-table stack-table">
                <TableHead
                  caption={t('alerts.title')}
                  columns={[t('alerts.table.raised'), t('alerts.table.device'), t('alerts.table.rule'), t('alerts.table.message'), t('alerts.table.state')]}
                  actions={t('alerts.table.actions')}
                />
                <tbody>
                  {list.map((a) => (
                    <Fragment key={a.uid}>
                      <tr data-alert={a.uid} data-state={a.state} className={a.state === 'active' ? 'alert-active' : undefined}>
                        <td data-label={t('alerts.table.raised')} className="nowrap">
                          {utcText(a.raised_unix)}
                          <br />
                          <span className="muted small">{relativeTime(a.raised_unix, now)}</span>
                        </td>
                        <td data-label={t('alerts.table.device')}>
                          <Link href={`/devices/${a.devEUI}`}>{label(a.devEUI)}</Link>
                        </td>
                        <td data-label={t('alerts.table.rule')} className="wrap">
                          {a.rule.uid === null ? <span className="muted">{t('alerts.ruleDeleted', { name: a.rule.name })}</span> : a.rule.name}
                        </td>
                        <td data-label={t('alerts.table.message')} className="wrap">
                          {a.message}
                        </td>
                        <td data-label={t('alerts.table.state')}>
                          <AlertStateBadge alert={a} />
                        </td>
                        <td>
                          <span className="row-actions">
                            <button
                              type="button"
                              className="small"
                              aria-expanded={open === a.uid}
                              aria-controls={`alert-${a.uid}-details`}
                              aria-label={t('alerts.historyOf', { uid: a.uid })}
                              onClick={() => setOpen(open === a.uid ? null : a.uid)}
                            >
                              {t('alerts.history')}
                            </button>
                            {operator && !a.acknowledged ? (
                              <button
                                type="button"
                                className="small primary"
                                aria-label={t('alerts.acknowledgeLabel', { message: a.message })}
                                disabled={ack.isPending && ack.variables === a.uid}
                                onClick={() => ack.mutate(a.uid)}
                              >
                                {t('alerts.acknowledge')}
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
                  {alerts.isFetchingNextPage ? t('alerts.loadingOlder') : t('alerts.loadOlder')}
                </button>
              </p>
            ) : null}
          </>
        ) : null}
      </Card>
    </>
  );
}
