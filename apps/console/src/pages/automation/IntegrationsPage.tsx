import { DELIVERY_STATES, type DeliveryState, type IntegrationWire, type TestSendWire } from '@dts/domain';
import { Pencil, Plus, Send } from 'lucide-react';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyValue';
import { SelectField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, Notice, PageHeader } from '../../components/ui';
import { useDeleteIntegration, useDeliveries, useIntegrations, useRedeliver, useTestIntegration, useUpdateIntegration } from '../../hooks/integrations';
import { i18n, useTranslation } from '../../i18n';
import { utcText } from '../../lib/format';
import { HEALTH_NAME, integrationHealth } from '../../lib/integration-health';
import { IntegrationForm } from './IntegrationForm';
import { scopeText } from './ScopeFields';
import { TableHead } from '../../components/TableHead';

const TONE_CLASS = { ok: 'badge-ok', bad: 'badge-bad', off: 'badge-off', info: 'badge-info' } as const;
const DELIVERY_CLASS: Record<DeliveryState, string> = { pending: 'badge-warn', delivered: 'badge-ok', failed: 'badge-bad' };

/** The outcome of a test send, as a sentence in the console's language (the service's error as it wrote it). */
function testText(name: string, outcome: TestSendWire): string {
  const t = i18n.t;
  const status = outcome.response_status;
  if (outcome.delivered)
    return status === null
      ? t('integrations.test.delivered', { name, ms: outcome.latency_ms })
      : t('integrations.test.deliveredStatus', { name, status, ms: outcome.latency_ms });
  const reason = outcome.error ?? t('integrations.test.noReason');
  return status === null ? t('integrations.test.failed', { name, reason }) : t('integrations.test.failedStatus', { name, status, reason });
}

/**
 * Outbound integrations: webhooks and MQTT brokers, made and changed, their secret shown once, tried
 * with a test event, switched off and on, deleted; their health and their delivery log with
 * redelivery. The organisation's admins' and owners' (the service refuses the rest).
 */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const admin = useCan('admin');
  if (!admin)
    return (
      <>
        <PageHeader title={t('integrations.title')} />
        <Card>
          <p>{t('integrations.adminsOnly')}</p>
        </Card>
      </>
    );
  return <Integrations />;
}

function Integrations() {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const update = useUpdateIntegration();
  const remove = useDeleteIntegration();
  const test = useTestIntegration();
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [notice, setNotice] = useState('');
  const [tested, setTested] = useState<{ uid: number; text: string; ok: boolean } | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const list = integrations.data ?? [];
  const current = typeof editing === 'number' ? list.find((i) => i.uid === editing) : undefined;
  const shownLog = list.find((i) => i.uid === logOf) ?? null;

  return (
    <>
      <PageHeader
        title={t('integrations.title')}
        subtitle={t('integrations.subtitle')}
        actions={
          editing === null ? (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setNotice('');
                setSecret(null);
                setEditing('new');
              }}
            >
              <Plus aria-hidden size={16} /> {t('integrations.newIntegration')}
            </button>
          ) : null
        }
      />
      <Notice text={notice} />
      {secret ? (
        <Card title={t('integrations.secretOf', { name: secret.name })} id="webhook-secret">
          <p>
            <Trans t={t} i18nKey="integrations.secretText" components={{ mono: <span className="mono" /> }} />
          </p>
          <CopyValue value={secret.value} label={t('integrations.secretOf', { name: secret.name })} />
          <div className="dialog-actions">
            <button type="button" onClick={() => setSecret(null)}>
              {t('integrations.secretStored')}
            </button>
          </div>
        </Card>
      ) : null}
      {editing !== null && (editing === 'new' || current) ? (
        <Card title={current ? t('integrations.edit', { name: current.name }) : t('integrations.newIntegration')} id="integration-form">
          <IntegrationForm
            key={editing}
            integration={current}
            onCancel={() => setEditing(null)}
            onDone={(saved) => {
              setEditing(null);
              setNotice(t('integrations.saved', { name: saved.name }));
              if ('secret' in saved && saved.secret) setSecret({ name: saved.name, value: saved.secret });
            }}
          />
        </Card>
      ) : null}
      <Card title={t('integrations.yours')} id="integrations">
        {integrations.isPending ? <Loading what={t('integrations.loading')} /> : null}
        <ErrorBox error={integrations.error ?? update.error ?? remove.error ?? test.error} />
        {integrations.data && list.length === 0 ? <Empty>{t('integrations.none')}</Empty> : null}
        <ul className="integration-list">
          {list.map((i) => (
            <IntegrationItem
              key={i.uid}
              integration={i}
              testing={test.isPending && test.variables === i.uid}
              tested={tested?.uid === i.uid ? tested : null}
              logShown={logOf === i.uid}
              onTest={() => {
                setTested(null);
                test.mutate(i.uid, { onSuccess: (outcome) => setTested({ uid: i.uid, text: testText(i.name, outcome), ok: outcome.delivered }) });
              }}
              onEdit={() => {
                setNotice('');
                setSecret(null);
                setEditing(i.uid);
              }}
              onToggle={() => update.mutate({ uid: i.uid, body: { enabled: !i.enabled } })}
              toggling={update.isPending}
              onDelete={() =>
                remove.mutate(i.uid, {
                  onSuccess: () => {
                    setNotice(t('integrations.deleted', { name: i.name }));
                    if (logOf === i.uid) setLogOf(null);
                  },
                })
              }
              deleting={remove.isPending}
              onLog={() => setLogOf(logOf === i.uid ? null : i.uid)}
            />
          ))}
        </ul>
      </Card>
      {shownLog ? <DeliveryLog integration={shownLog} /> : null}
    </>
  );
}

function IntegrationItem({
  integration: i,
  testing,
  tested,
  logShown,
  onTest,
  onEdit,
  onToggle,
  toggling,
  onDelete,
  deleting,
  onLog,
}: {
  integration: IntegrationWire;
  testing: boolean;
  tested: { text: string; ok: boolean } | null;
  logShown: boolean;
  onTest: () => void;
  onEdit: () => void;
  onToggle: () => void;
  toggling: boolean;
  onDelete: () => void;
  deleting: boolean;
  onLog: () => void;
}) {
  const { t } = useTranslation();
  const health = integrationHealth(i);
  return (
    <li className="integration" data-integration={i.uid}>
      <div className="integration-head">
        <h3>{i.name}</h3>
        <span className="badge">{i.kind === 'webhook' ? t('integrations.item.webhook') : t('integrations.item.mqtt')}</span>
        <span className={`badge ${TONE_CLASS[health.tone]}`} data-health={HEALTH_NAME[health.state]}>
          {health.label}
        </span>
        {i.pending > 0 ? <span className="badge badge-warn">{t('integrations.item.waiting', { count: i.pending })}</span> : null}
      </div>
      <p className="mono small integration-url">{i.url}</p>
      <p className="small">
        {i.events.join(', ')} · {scopeText(i.devices)}
        {i.kind === 'mqtt' ? t('integrations.item.mqttLine', { topic: i.topic ?? '', qos: i.qos ?? 1 }) : ''}
      </p>
      {health.detail ? <p className={`small health-detail health-${health.tone}`}>{health.detail}</p> : null}
      {tested ? (
        <p className={tested.ok ? 'notice' : 'error-box'} role="status">
          {tested.text}
        </p>
      ) : null}
      <div className="row-actions">
        <button
          type="button"
          className="small"
          onClick={onTest}
          disabled={testing}
          aria-label={testing ? t('integrations.item.sendingLabel', { name: i.name }) : t('integrations.item.testLabel', { name: i.name })}
          title={t('integrations.item.testTitle')}
        >
          <Send aria-hidden size={14} /> {testing ? t('integrations.item.sending') : t('integrations.item.test')}
        </button>
        <button type="button" className="small" onClick={onLog} aria-expanded={logShown} aria-label={t('integrations.item.logLabel', { name: i.name })}>
          {t('integrations.item.log')}
        </button>
        <button type="button" className="small" onClick={onEdit} aria-label={t('integrations.edit', { name: i.name })}>
          <Pencil aria-hidden size={14} /> {t('integrations.item.editButton')}
        </button>
        <button
          type="button"
          className="small"
          onClick={onToggle}
          disabled={toggling}
          aria-label={i.enabled ? t('integrations.item.switchOffLabel', { name: i.name }) : t('integrations.item.switchOnLabel', { name: i.name })}
        >
          {i.enabled ? t('integrations.item.switchOff') : t('integrations.item.switchOn')}
        </button>
        <ConfirmButton
          label={t('integrations.item.delete')}
          confirm={t('integrations.item.confirmDelete', { name: i.name })}
          pending={deleting}
          onConfirm={onDelete}
        />
      </div>
    </li>
  );
}

function DeliveryLog({ integration }: { integration: IntegrationWire }) {
  const { t } = useTranslation();
  const [state, setState] = useState<DeliveryState | ''>('');
  const deliveries = useDeliveries(integration.uid, state ? { state } : {});
  const redeliver = useRedeliver(integration.uid);
  const rows = deliveries.data?.pages.flatMap((p) => p.rows) ?? [];
  const health = integrationHealth(integration, rows[0]);
  return (
    <Card title={t('integrations.log.title', { name: integration.name })} id="delivery-log">
      {health.detail ? <p className={`small health-detail health-${health.tone}`}>{health.detail}</p> : null}
      <div className="toolbar delivery-filters">
        <SelectField
          label={t('integrations.log.state')}
          value={state}
          empty={t('integrations.log.every')}
          onChange={(e) => setState(e.target.value as DeliveryState | '')}
          options={DELIVERY_STATES.map((s) => ({ value: s, label: t(`integrations.log.states.${s}`) }))}
        />
      </div>
      {deliveries.isPending ? <Loading what={t('integrations.log.loading')} /> : null}
      <ErrorBox error={deliveries.error ?? redeliver.error} />
      {deliveries.data && rows.length === 0 ? <Empty>{state ? t(`integrations.log.noneInState.${state}`) : t('integrations.log.none')}</Empty> : null}
      {rows.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table static deliveries-table stack-table">
            <TableHead
              caption={t('integrations.log.caption', { name: integration.name })}
              columns={[
                t('integrations.log.table.event'),
                t('integrations.log.table.device'),
                t('integrations.log.table.state'),
                t('integrations.log.table.attempts'),
                t('integrations.log.table.answer'),
                t('integrations.log.table.lastAttempt'),
                t('integrations.log.table.error'),
              ]}
              actions={t('integrations.log.table.actions')}
            />
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-state={d.state}>
                  <td data-label={t('integrations.log.table.event')}>
                    {d.event_type} <span className="mono small muted">{d.event_id}</span>
                    <br />
                    <span className="small muted">{utcText(d.created_unix)}</span>
                  </td>
                  <td data-label={t('integrations.log.table.device')}>
                    <Link href={`/devices/${d.devEUI}`} className="mono">
                      {d.devEUI}
                    </Link>
                  </td>
                  <td data-label={t('integrations.log.table.state')}>
                    <span className={`badge ${DELIVERY_CLASS[d.state]}`}>{t(`integrations.log.states.${d.state}`)}</span>
                  </td>
                  <td data-label={t('integrations.log.table.attempts')}>{d.attempts}</td>
                  <td data-label={t('integrations.log.table.answer')} className="nowrap">
                    {d.response_status === null ? (d.latency_ms === null ? '–' : t('integrations.log.noStatus')) : `HTTP ${d.response_status}`}
                    {d.latency_ms === null ? '' : ` · ${d.latency_ms} ms`}
                  </td>
                  <td data-label={t('integrations.log.table.lastAttempt')} className="small">
                    {utcText(d.last_attempt_unix)}
                    {d.state === 'pending' && d.next_attempt_unix !== null ? (
                      <>
                        <br />
                        {t('integrations.log.next', { time: utcText(d.next_attempt_unix) })}
                      </>
                    ) : null}
                  </td>
                  <td data-label={t('integrations.log.table.error')} className="small wrap delivery-error">
                    {d.error ?? ''}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={t('integrations.log.redeliverLabel', { id: d.event_id })}
                      disabled={redeliver.isPending && redeliver.variables === d.id}
                      onClick={() => redeliver.mutate(d.id, { onSuccess: () => void deliveries.refetch() })}
                    >
                      {t('integrations.log.redeliver')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {deliveries.hasNextPage ? (
        <p>
          <button type="button" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
            {deliveries.isFetchingNextPage ? t('integrations.log.loadingOlder') : t('integrations.log.loadOlder')}
          </button>
        </p>
      ) : null}
    </Card>
  );
}
