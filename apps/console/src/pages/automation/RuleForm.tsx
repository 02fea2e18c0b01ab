import { BATTERY_MEASURES, FENCE_TRIGGERS, OFFLINE_MINUTES_MAX, RULE_KINDS, RULE_NAME_MAX_LENGTH, type RuleKind, type RuleWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { fieldError } from '../../api/client';
import { SelectField, TextField } from '../../components/form';
import { ErrorBox } from '../../components/ui';
import { useFences } from '../../hooks/fences';
import { useCreateRule, useUpdateRule } from '../../hooks/rules';
import { type RuleDraft, type RuleFieldProblems, ruleBody, ruleDraft } from '../../lib/automation-draft';
import { useTranslation } from '../../i18n';
import { ScopeFields } from './ScopeFields';

/** Measurements of the uplink table and its radio data; any other name is a number of the decoded payload. */
const MEMBERS = ['temperature', 'humidity', 'battery_voltage', 'battery_percent', 'LAT', 'LON', 'ALT', 'RSSI', 'SNR', 'SF'];

/**
 * A rule's form, one kind at a time: the kind's own members (kept while another kind is looked at)
 * and the common ones. Errors are shown at their field: the form's own (a number that is not one)
 * before sending, the service's from its envelope after.
 */
export function RuleForm({ rule, onDone, onCancel }: { rule?: RuleWire; onDone: (rule: RuleWire) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<RuleDraft>(() => ruleDraft(rule));
  const [problems, setProblems] = useState<RuleFieldProblems>({});
  const create = useCreateRule();
  const update = useUpdateRule();
  const fences = useFences();
  const error = rule ? update.error : create.error;
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const at = (field: keyof RuleFieldProblems) => problems[field] ?? fieldError(error, field);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const made = ruleBody(draft);
    if ('problems' in made) {
      setProblems(made.problems);
      return;
    }
    setProblems({});
    if (rule) {
      const { kind: _kind, ...body } = made.body;
      update.mutate({ uid: rule.uid, body }, { onSuccess: onDone });
    } else create.mutate(made.body, { onSuccess: onDone });
  };

  const fenceList = fences.data ?? [];
  return (
    <form onSubmit={save} noValidate className="automation-form" aria-label={rule ? t('rules.form.editLabel', { name: rule.name }) : t('rules.form.newLabel')}>
      <div className="grid-2">
        <TextField
          label={t('rules.form.name')}
          required
          maxLength={RULE_NAME_MAX_LENGTH}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={at('name')}
        />
        <SelectField
          label={t('rules.form.kind')}
          value={draft.kind}
          disabled={!!rule}
          hint={rule ? t('rules.form.kindKept') : undefined}
          onChange={(e) => {
            set({ kind: e.target.value as RuleKind });
            setProblems({});
          }}
          options={RULE_KINDS.map((k) => ({ value: k, label: t(`rules.form.kinds.${k}`) }))}
          error={fieldError(error, 'kind')}
        />
      </div>

      <fieldset className="kind-fields">
        <legend>{t('rules.form.condition')}</legend>
        {draft.kind === 'fence' ? (
          <div className="grid-2">
            <SelectField
              label={t('rules.form.fence')}
              value={draft.fence}
              empty={fenceList.length ? t('rules.form.chooseFence') : t('rules.form.noFences')}
              onChange={(e) => set({ fence: e.target.value })}
              options={fenceList.map((f) => ({ value: f.uid, label: f.name }))}
              error={at('fence')}
            />
            <SelectField
              label={t('rules.form.when')}
              value={draft.on}
              onChange={(e) => set({ on: e.target.value as RuleDraft['on'] })}
              options={FENCE_TRIGGERS.map((on) => ({ value: on, label: on === 'enter' ? t('rules.form.enters') : t('rules.form.leaves') }))}
              error={fieldError(error, 'on')}
            />
            {fenceList.length === 0 && !fences.isPending ? (
              <p className="hint">
                <Trans t={t} i18nKey="rules.form.drawFence" components={{ fences: <Link href="/fences" /> }} />
              </p>
            ) : null}
          </div>
        ) : null}
        {draft.kind === 'offline' ? (
          <TextField
            label={t('rules.form.minutes')}
            inputMode="numeric"
            value={draft.minutes}
            onChange={(e) => set({ minutes: e.target.value })}
            hint={t('rules.form.minutesHint', { max: OFFLINE_MINUTES_MAX })}
            error={at('minutes')}
          />
        ) : null}
        {draft.kind === 'threshold' ? (
          <div className="grid-2">
            <TextField
              label={t('rules.form.member')}
              list="rule-members"
              value={draft.member}
              onChange={(e) => set({ member: e.target.value })}
              hint={t('rules.form.memberHint')}
              error={at('member')}
              autoComplete="off"
            />
            <datalist id="rule-members">
              {MEMBERS.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
            <SelectField
              label={t('rules.form.direction')}
              value={draft.direction}
              onChange={(e) => set({ direction: e.target.value as RuleDraft['direction'] })}
              options={[
                { value: 'above', label: t('rules.form.above') },
                { value: 'below', label: t('rules.form.below') },
              ]}
            />
            <TextField
              label={t('rules.form.limit')}
              inputMode="decimal"
              value={draft.limit}
              onChange={(e) => set({ limit: e.target.value })}
              error={at(draft.direction)}
            />
            <TextField
              label={t('rules.form.hysteresis')}
              inputMode="decimal"
              value={draft.hysteresis}
              onChange={(e) => set({ hysteresis: e.target.value })}
              hint={t('rules.form.hysteresisHint')}
              error={at('hysteresis')}
            />
          </div>
        ) : null}
        {draft.kind === 'battery' ? (
          <div className="grid-2">
            <SelectField
              label={t('rules.form.measure')}
              value={draft.measure}
              onChange={(e) => set({ measure: e.target.value as RuleDraft['measure'] })}
              options={BATTERY_MEASURES.map((m) => ({ value: m, label: m === 'percent' ? t('rules.form.percent') : t('rules.form.voltage') }))}
              error={fieldError(error, 'measure')}
            />
            <TextField
              label={draft.measure === 'percent' ? t('rules.form.belowPercent') : t('rules.form.belowVolt')}
              inputMode="decimal"
              value={draft.below}
              onChange={(e) => set({ below: e.target.value })}
              error={at('below')}
            />
            <TextField
              label={t('rules.form.hysteresis')}
              inputMode="decimal"
              value={draft.hysteresis}
              onChange={(e) => set({ hysteresis: e.target.value })}
              hint={t('rules.form.batteryHysteresisHint')}
              error={at('hysteresis')}
            />
          </div>
        ) : null}
      </fieldset>

      <ScopeFields value={draft.scope} onChange={(scope) => set({ scope })} error={error} />

      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> {t('rules.form.enabled')}
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.email} onChange={(e) => set({ email: e.target.checked })} /> {t('rules.form.email')}
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={create.isPending || update.isPending}>
          {rule ? t('rules.form.save') : t('rules.form.create')}
        </button>
      </div>
    </form>
  );
}
