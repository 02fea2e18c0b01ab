import { DELIVERY_STATES, type DeliveryState, type IntegrationWire, type TestSendWire } from '@dts/domain';
import { Pencil, Plus, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyValue';
import { SelectField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDeleteIntegration, useDeliveries, useIntegrations, useRedeliver, useTestIntegration, useUpdateIntegration } from '../../hooks/integrations';
import { plural, utcText } from '../../lib/format';
import { integrationHealth } from '../../lib/integration-health';
import { IntegrationForm } from './IntegrationForm';
import { scopeText } from './ScopeFields';

const TONE_CLASS = { ok: 'badge-ok', bad: 'badge-bad', off: 'badge-off', info: 'badge-info' } as const;
const DELIVERY_CLASS: Record<DeliveryState, string> = { pending: 'badge-warn', delivered: 'badge-ok', failed: 'badge-bad' };

/** The outcome of a test send, as a sentence. */
function testText(name: string, outcome: TestSendWire): string {
  const status = outcome.response_status === null ? '' : ` (HTTP ${outcome.response_status})`;
  return outcome.delivered
    ? `Test event delivered to ${name}${status} in ${outcome.latency_ms} ms.`
    : `The test event did not reach ${name}${status}: ${outcome.error ?? 'no reason given'}.`;
}

/**
 * Outbound integrations: webhooks and MQTT brokers, made and changed, their secret shown once, tried
 * with a test event, switched off and on, deleted; their health and their delivery log with
 * redelivery. The organisation's admins' and owners' (the service refuses the rest).
 */
export function IntegrationsPage() {
  const admin = useCan('admin');
  if (!admin)
    return (
      <>
        <PageHeader title="Integrations" />
        <Card>
          <p>Integrations send this account’s events to other systems. Only its admins and owners see and change them.</p>
        </Card>
      </>
    );
  return <Integrations />;
}

function Integrations() {
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
        title="Integrations"
        subtitle="Send uplinks, commands, alerts and images to your own systems as they happen: signed webhooks or an MQTT broker."
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
              <Plus aria-hidden size={16} /> New integration
            </button>
          ) : null
        }
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {secret ? (
        <Card title={`Signing secret of ${secret.name}`} id="webhook-secret">
          <p>
            Your receiver checks each request’s <span className="mono">webhook-signature</span> with this secret. It is shown now only: copy it and keep it
            where the receiver reads it.
          </p>
          <CopyValue value={secret.value} label={`Signing secret of ${secret.name}`} />
          <div className="dialog-actions">
            <button type="button" onClick={() => setSecret(null)}>
              I have stored it
            </button>
          </div>
        </Card>
      ) : null}
      {editing !== null && (editing === 'new' || current) ? (
        <Card title={current ? `Edit ${current.name}` : 'New integration'} id="integration-form">
          <IntegrationForm
            key={editing}
            integration={current}
            onCancel={() => setEditing(null)}
            onDone={(saved) => {
              setEditing(null);
              setNotice(`Integration ${saved.name} saved.`);
              if ('secret' in saved && saved.secret) setSecret({ name: saved.name, value: saved.secret });
            }}
          />
        </Card>
      ) : null}
      <Card title="Your integrations" id="integrations">
        {integrations.isPending ? <Loading what="Loading integrations" /> : null}
        <ErrorBox error={integrations.error ?? update.error ?? remove.error ?? test.error} />
        {integrations.data && list.length === 0 ? <Empty>No integrations yet. Make one with “New integration”.</Empty> : null}
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
                    setNotice(`Integration ${i.name} deleted.`);
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
  const health = integrationHealth(i);
  return (
    <li className="integration" data-integration={i.uid}>
      <div className="integration-head">
        <h3>{i.name}</h3>
        <span className="badge">{i.kind === 'webhook' ? 'Webhook' : 'MQTT'}</span>
        <span className={`badge ${TONE_CLASS[health.tone]}`} data-health={health.label}>
          {health.label}
        </span>
        {i.pending > 0 ? <span className="badge badge-warn">{plural(i.pending, 'delivery', 'deliveries')} waiting</span> : null}
      </div>
      <p className="mono small integration-url">{i.url}</p>
      <p className="small">
        {i.events.join(', ')} · {scopeText(i.devices)}
        {i.kind === 'mqtt' ? ` · topic ${i.topic ?? ''} · QoS ${i.qos ?? 1}` : ''}
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
          aria-label={testing ? `Sending… ${i.name}` : `Test ${i.name}`}
          title="Send one signed test event now"
        >
          <Send aria-hidden size={14} /> {testing ? 'Sending…' : 'Test'}
        </button>
        <button type="button" className="small" onClick={onLog} aria-expanded={logShown} aria-label={`Delivery log of ${i.name}`}>
          Delivery log
        </button>
        <button type="button" className="small" onClick={onEdit} aria-label={`Edit ${i.name}`}>
          <Pencil aria-hidden size={14} /> Edit
        </button>
        <button type="button" className="small" onClick={onToggle} disabled={toggling} aria-label={i.enabled ? `Switch off ${i.name}` : `Switch on ${i.name}`}>
          {i.enabled ? 'Switch off' : 'Switch on'}
        </button>
        <ConfirmButton label="Delete" confirm={`Delete ${i.name} and its delivery log?`} pending={deleting} onConfirm={onDelete} />
      </div>
    </li>
  );
}

function DeliveryLog({ integration }: { integration: IntegrationWire }) {
  const [state, setState] = useState<DeliveryState | ''>('');
  const deliveries = useDeliveries(integration.uid, state ? { state } : {});
  const redeliver = useRedeliver(integration.uid);
  const rows = deliveries.data?.pages.flatMap((p) => p.rows) ?? [];
  const health = integrationHealth(integration, rows[0]);
  return (
    <Card title={`Delivery log of ${integration.name}`} id="delivery-log">
      {health.detail ? <p className={`small health-detail health-${health.tone}`}>{health.detail}</p> : null}
      <div className="toolbar delivery-filters">
        <SelectField
          label="State"
          value={state}
          empty="Every delivery"
          onChange={(e) => setState(e.target.value as DeliveryState | '')}
          options={DELIVERY_STATES.map((s) => ({ value: s, label: s }))}
        />
      </div>
      {deliveries.isPending ? <Loading what="Loading deliveries" /> : null}
      <ErrorBox error={deliveries.error ?? redeliver.error} />
      {deliveries.data && rows.length === 0 ? <Empty>{state ? `No ${state} deliveries.` : 'No deliveries yet: they appear as events happen.'}</Empty> : null}
      {rows.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table static deliveries-table stack-table">
            <caption className="sr-only">{`Deliveries of ${integration.name}`}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Device</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Answer</th>
                <th scope="col">Last attempt (UTC)</th>
                <th scope="col">Error</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-state={d.state}>
                  <td data-label="Event">
                    {d.event_type} <span className="mono small muted">{d.event_id}</span>
                    <br />
                    <span className="small muted">{utcText(d.created_unix)}</span>
                  </td>
                  <td data-label="Device">
                    <Link href={`/devices/${d.devEUI}`} className="mono">
                      {d.devEUI}
                    </Link>
                  </td>
                  <td data-label="State">
                    <span className={`badge ${DELIVERY_CLASS[d.state]}`}>{d.state}</span>
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Answer" className="nowrap">
                    {d.response_status === null ? (d.latency_ms === null ? '–' : 'no status') : `HTTP ${d.response_status}`}
                    {d.latency_ms === null ? '' : ` · ${d.latency_ms} ms`}
                  </td>
                  <td data-label="Last attempt (UTC)" className="small">
                    {utcText(d.last_attempt_unix)}
                    {d.state === 'pending' && d.next_attempt_unix !== null ? (
                      <>
                        <br />
                        next {utcText(d.next_attempt_unix)}
                      </>
                    ) : null}
                  </td>
                  <td data-label="Error" className="small wrap delivery-error">
                    {d.error ?? ''}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={`Redeliver ${d.event_id}`}
                      disabled={redeliver.isPending && redeliver.variables === d.id}
                      onClick={() => redeliver.mutate(d.id, { onSuccess: () => void deliveries.refetch() })}
                    >
                      Redeliver
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
            {deliveries.isFetchingNextPage ? 'Loading older deliveries…' : 'Load older deliveries'}
          </button>
        </p>
      ) : null}
    </Card>
  );
}
