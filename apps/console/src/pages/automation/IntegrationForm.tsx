import {
  type CreatedIntegrationWire,
  DEFAULT_TOPIC_TEMPLATE,
  EVENT_TYPES,
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
import { useTranslation } from '../../i18n';
import { ScopeFields } from './ScopeFields';

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
  const { t } = useTranslation();
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
      setEventsProblem(t('integrations.form.chooseEvent'));
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
    <form
      onSubmit={save}
      noValidate
      className="automation-form"
      aria-label={integration ? t('integrations.form.editLabel', { name: integration.name }) : t('integrations.form.newLabel')}
    >
      <div className="grid-2">
        <TextField
          label={t('integrations.form.name')}
          required
          maxLength={INTEGRATION_NAME_MAX_LENGTH}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={fieldError(error, 'name')}
        />
        <SelectField
          label={t('integrations.form.kind')}
          value={draft.kind}
          disabled={!!integration}
          hint={integration ? t('integrations.form.kindKept') : undefined}
          onChange={(e) => set({ kind: e.target.value as IntegrationKind })}
          options={[
            { value: 'webhook', label: t('integrations.form.webhook') },
            { value: 'mqtt', label: t('integrations.form.mqtt') },
          ]}
          error={fieldError(error, 'kind')}
        />
      </div>
      <TextField
        label={mqtt ? t('integrations.form.brokerUrl') : t('integrations.form.endpointUrl')}
        required
        className="mono"
        maxLength={INTEGRATION_URL_MAX_LENGTH}
        placeholder={mqtt ? 'mqtts://broker.example.org:8883' : 'https://example.org/hooks/telemetry'}
        value={draft.url}
        onChange={(e) => set({ url: e.target.value })}
        hint={mqtt ? t('integrations.form.brokerHint') : t('integrations.form.endpointHint')}
        error={fieldError(error, 'url')}
        autoComplete="off"
      />
      <fieldset className={`event-choice${eventsError ? ' field-invalid' : ''}`} aria-describedby={eventsError ? 'integration-events-error' : undefined}>
        <legend>{t('integrations.form.events')}</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={draft.events.includes(type)}
              onChange={(e) => set({ events: e.target.checked ? [...draft.events, type] : draft.events.filter((x) => x !== type) })}
            />{' '}
            {t(`integrations.form.eventLabels.${type}`)}
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
          <legend>{t('integrations.form.mqttLegend')}</legend>
          <div className="grid-2">
            <TextField
              label={t('integrations.form.topic')}
              className="mono"
              placeholder={DEFAULT_TOPIC_TEMPLATE}
              value={draft.topic}
              onChange={(e) => set({ topic: e.target.value })}
              hint={t('integrations.form.topicHint', { topic: DEFAULT_TOPIC_TEMPLATE })}
              error={fieldError(error, 'topic')}
              autoComplete="off"
            />
            <SelectField
              label={t('integrations.form.qos')}
              value={draft.qos}
              onChange={(e) => set({ qos: Number(e.target.value) === 0 ? 0 : 1 })}
              options={[
                { value: 1, label: t('integrations.form.qos1') },
                { value: 0, label: t('integrations.form.qos0') },
              ]}
              error={fieldError(error, 'qos')}
            />
            <TextField
              label={t('integrations.form.username')}
              value={draft.username}
              onChange={(e) => set({ username: e.target.value })}
              error={fieldError(error, 'username')}
              autoComplete="off"
            />
            <TextField
              label={integration?.has_password ? t('integrations.form.newPassword') : t('integrations.form.password')}
              type="password"
              value={draft.password}
              onChange={(e) => set({ password: e.target.value, clearPassword: false })}
              hint={integration?.has_password ? t('integrations.form.passwordStored') : t('integrations.form.passwordKept')}
              error={fieldError(error, 'password')}
              autoComplete="new-password"
            />
          </div>
          {integration?.has_password ? (
            <label className="check">
              <input type="checkbox" checked={draft.clearPassword} disabled={!!draft.password} onChange={(e) => set({ clearPassword: e.target.checked })} />{' '}
              {t('integrations.form.removePassword')}
            </label>
          ) : null}
        </fieldset>
      ) : null}
      <ScopeFields value={draft.scope} onChange={(scope) => set({ scope })} error={error} />
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> {t('integrations.form.enabled')}
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={create.isPending || update.isPending}>
          {integration ? t('integrations.form.save') : t('integrations.form.create')}
        </button>
      </div>
    </form>
  );
}
