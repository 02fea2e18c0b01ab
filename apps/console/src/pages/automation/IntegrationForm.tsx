import {
  type CreatedIntegrationWire,
  DEFAULT_TOPIC_TEMPLATE,
  EVENT_TYPES,
  type EventType,
  INTEGRATION_NAME_MAX_LENGTH,
  INTEGRATION_URL_MAX_LENGTH,
  type IntegrationKind,
  type IntegrationWire,
} from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/client';
import { SelectField, TextField } from '../../components/form';
import { ErrorBox } from '../../components/ui';
import { useCreateIntegration, useUpdateIntegration } from '../../hooks/integrations';
import { type IntegrationDraft, integrationBody, integrationDraft } from '../../lib/automation-draft';
import { ScopeFields } from './ScopeFields';

export const EVENT_LABEL: Record<EventType, string> = {
  uplink: 'Uplinks: each new uplink',
  command: 'Commands: created or moved to another status',
  alert: 'Alerts: raised or cleared',
  image: 'Images: processed, annotated or failed',
};

/**
 * A webhook's or an MQTT broker's form. Creating answers with the webhook's secret, which the page
 * shows once (`onDone` gets it); the MQTT password is never shown, only replaced or removed.
 */
export function IntegrationForm({
  integration,
  onDone,
  onCancel,
}: {
  integration?: IntegrationWire;
  onDone: (saved: IntegrationWire | CreatedIntegrationWire) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<IntegrationDraft>(() => integrationDraft(integration));
  const [eventsProblem, setEventsProblem] = useState<string | null>(null);
  const create = useCreateIntegration();
  const update = useUpdateIntegration();
  const error = integration ? update.error : create.error;
  const set = (patch: Partial<IntegrationDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const mqtt = draft.kind === 'mqtt';

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (draft.events.length === 0) {
      setEventsProblem('Choose at least one kind of event.');
      return;
    }
    setEventsProblem(null);
    const body = integrationBody(draft, !!integration);
    if (integration) {
      const { kind: _kind, ...changes } = body;
      update.mutate({ uid: integration.uid, body: changes }, { onSuccess: onDone });
    } else create.mutate(body, { onSuccess: onDone });
  };
  const eventsError = eventsProblem ?? fieldError(error, 'events');

  return (
    <form onSubmit={save} noValidate className="automation-form" aria-label={integration ? `Edit integration ${integration.name}` : 'New integration'}>
      <div className="grid-2">
        <TextField
          label="Name"
          required
          maxLength={INTEGRATION_NAME_MAX_LENGTH}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={fieldError(error, 'name')}
        />
        <SelectField
          label="Kind"
          value={draft.kind}
          disabled={!!integration}
          hint={integration ? 'An integration keeps its kind.' : undefined}
          onChange={(e) => set({ kind: e.target.value as IntegrationKind })}
          options={[
            { value: 'webhook', label: 'Webhook (HTTP POST, signed)' },
            { value: 'mqtt', label: 'MQTT broker' },
          ]}
          error={fieldError(error, 'kind')}
        />
      </div>
      <TextField
        label={mqtt ? 'Broker URL' : 'Endpoint URL'}
        required
        className="mono"
        maxLength={INTEGRATION_URL_MAX_LENGTH}
        placeholder={mqtt ? 'mqtts://broker.example.org:8883' : 'https://example.org/hooks/telemetry'}
        value={draft.url}
        onChange={(e) => set({ url: e.target.value })}
        hint={
          mqtt
            ? 'mqtt://host[:1883] or mqtts://host[:8883], without credentials or a path.'
            : 'Events are POSTed here as JSON, signed as Standard Webhooks says.'
        }
        error={fieldError(error, 'url')}
        autoComplete="off"
      />
      <fieldset className={`event-choice${eventsError ? ' field-invalid' : ''}`} aria-describedby={eventsError ? 'integration-events-error' : undefined}>
        <legend>Events</legend>
        {EVENT_TYPES.map((t) => (
          <label key={t} className="check">
            <input
              type="checkbox"
              checked={draft.events.includes(t)}
              onChange={(e) => set({ events: e.target.checked ? [...draft.events, t] : draft.events.filter((x) => x !== t) })}
            />{' '}
            {EVENT_LABEL[t]}
          </label>
        ))}
        {eventsError ? (
          <small id="integration-events-error" className="field-error">
            {eventsError}
          </small>
        ) : null}
      </fieldset>
      {mqtt ? (
        <fieldset className="kind-fields">
          <legend>MQTT</legend>
          <div className="grid-2">
            <TextField
              label="Topic"
              className="mono"
              placeholder={DEFAULT_TOPIC_TEMPLATE}
              value={draft.topic}
              onChange={(e) => set({ topic: e.target.value })}
              hint={`With {devEUI}, {event} and {account}. Empty: ${DEFAULT_TOPIC_TEMPLATE}.`}
              error={fieldError(error, 'topic')}
              autoComplete="off"
            />
            <SelectField
              label="QoS"
              value={draft.qos}
              onChange={(e) => set({ qos: Number(e.target.value) === 0 ? 0 : 1 })}
              options={[
                { value: 1, label: '1: acknowledged by the broker' },
                { value: 0, label: '0: sent once written' },
              ]}
              error={fieldError(error, 'qos')}
            />
            <TextField
              label="Username (optional)"
              value={draft.username}
              onChange={(e) => set({ username: e.target.value })}
              error={fieldError(error, 'username')}
              autoComplete="off"
            />
            <TextField
              label={integration?.has_password ? 'New password (optional)' : 'Password (optional)'}
              type="password"
              value={draft.password}
              onChange={(e) => set({ password: e.target.value, clearPassword: false })}
              hint={integration?.has_password ? 'A password is stored. Leave this empty to keep it.' : 'Kept encrypted; never shown again.'}
              error={fieldError(error, 'password')}
              autoComplete="new-password"
            />
          </div>
          {integration?.has_password ? (
            <label className="check">
              <input type="checkbox" checked={draft.clearPassword} disabled={!!draft.password} onChange={(e) => set({ clearPassword: e.target.checked })} />{' '}
              Remove the stored password
            </label>
          ) : null}
        </fieldset>
      ) : null}
      <ScopeFields value={draft.scope} onChange={(scope) => set({ scope })} error={error} />
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending || update.isPending}>
          {integration ? 'Save integration' : 'Create integration'}
        </button>
      </div>
    </form>
  );
}
