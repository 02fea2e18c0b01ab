import { BATTERY_MEASURES, FENCE_TRIGGERS, OFFLINE_MINUTES_MAX, RULE_KINDS, RULE_NAME_MAX_LENGTH, type RuleKind, type RuleWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { fieldError } from '../../api/client';
import { SelectField, TextField } from '../../components/form';
import { ErrorBox } from '../../components/ui';
import { useFences } from '../../hooks/fences';
import { useCreateRule, useUpdateRule } from '../../hooks/rules';
import { type RuleDraft, type RuleFieldProblems, ruleBody, ruleDraft } from '../../lib/automation-draft';
import { ScopeFields } from './ScopeFields';

export const KIND_LABEL: Record<RuleKind, string> = {
  fence: 'Fence: enters or leaves an area',
  offline: 'Offline: no uplink for a while',
  threshold: 'Threshold: a measurement passes a limit',
  battery: 'Battery: runs low',
};

/** Measurements of the uplink table and its radio data; any other name is a number of the decoded payload. */
const MEMBERS = ['temperature', 'humidity', 'battery_voltage', 'battery_percent', 'LAT', 'LON', 'ALT', 'RSSI', 'SNR', 'SF'];

/**
 * A rule's form, one kind at a time: the kind's own members (kept while another kind is looked at)
 * and the common ones. Errors are shown at their field: the form's own (a number that is not one)
 * before sending, the service's from its envelope after.
 */
export function RuleForm({ rule, onDone, onCancel }: { rule?: RuleWire; onDone: (rule: RuleWire) => void; onCancel: () => void }) {
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
    <form onSubmit={save} noValidate className="automation-form" aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'}>
      <div className="grid-2">
        <TextField
          label="Name"
          required
          maxLength={RULE_NAME_MAX_LENGTH}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={at('name')}
        />
        <SelectField
          label="Kind"
          value={draft.kind}
          disabled={!!rule}
          hint={rule ? 'A rule keeps its kind; make a new rule for another.' : undefined}
          onChange={(e) => {
            set({ kind: e.target.value as RuleKind });
            setProblems({});
          }}
          options={RULE_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
          error={fieldError(error, 'kind')}
        />
      </div>

      <fieldset className="kind-fields">
        <legend>Condition</legend>
        {draft.kind === 'fence' ? (
          <div className="grid-2">
            <SelectField
              label="Fence"
              value={draft.fence}
              empty={fenceList.length ? 'Choose a fence' : 'No fences yet'}
              onChange={(e) => set({ fence: e.target.value })}
              options={fenceList.map((f) => ({ value: f.uid, label: f.name }))}
              error={at('fence')}
            />
            <SelectField
              label="When the device"
              value={draft.on}
              onChange={(e) => set({ on: e.target.value as RuleDraft['on'] })}
              options={FENCE_TRIGGERS.map((t) => ({ value: t, label: t === 'enter' ? 'enters the fence' : 'leaves the fence' }))}
              error={fieldError(error, 'on')}
            />
            {fenceList.length === 0 && !fences.isPending ? (
              <p className="hint">
                Draw a fence on the <Link href="/fences">Fences</Link> page first.
              </p>
            ) : null}
          </div>
        ) : null}
        {draft.kind === 'offline' ? (
          <TextField
            label="Minutes without an uplink"
            inputMode="numeric"
            value={draft.minutes}
            onChange={(e) => set({ minutes: e.target.value })}
            hint={`From 1 to ${OFFLINE_MINUTES_MAX.toLocaleString('en')} (30 days). Cleared by the next uplink.`}
            error={at('minutes')}
          />
        ) : null}
        {draft.kind === 'threshold' ? (
          <div className="grid-2">
            <TextField
              label="Measurement"
              list="rule-members"
              value={draft.member}
              onChange={(e) => set({ member: e.target.value })}
              hint="A column such as temperature or RSSI, or a number of the decoded payload by its name."
              error={at('member')}
              autoComplete="off"
            />
            <datalist id="rule-members">
              {MEMBERS.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
            <SelectField
              label="Alert when it is"
              value={draft.direction}
              onChange={(e) => set({ direction: e.target.value as RuleDraft['direction'] })}
              options={[
                { value: 'above', label: 'above the limit' },
                { value: 'below', label: 'below the limit' },
              ]}
            />
            <TextField label="Limit" inputMode="decimal" value={draft.limit} onChange={(e) => set({ limit: e.target.value })} error={at(draft.direction)} />
            <TextField
              label="Hysteresis (optional)"
              inputMode="decimal"
              value={draft.hysteresis}
              onChange={(e) => set({ hysteresis: e.target.value })}
              hint="Cleared once the value is back past the limit by more than this."
              error={at('hysteresis')}
            />
          </div>
        ) : null}
        {draft.kind === 'battery' ? (
          <div className="grid-2">
            <SelectField
              label="Measure"
              value={draft.measure}
              onChange={(e) => set({ measure: e.target.value as RuleDraft['measure'] })}
              options={BATTERY_MEASURES.map((m) => ({ value: m, label: m === 'percent' ? 'Percentage' : 'Voltage' }))}
              error={fieldError(error, 'measure')}
            />
            <TextField
              label={draft.measure === 'percent' ? 'Alert below (%)' : 'Alert below (V)'}
              inputMode="decimal"
              value={draft.below}
              onChange={(e) => set({ below: e.target.value })}
              error={at('below')}
            />
            <TextField
              label="Hysteresis (optional)"
              inputMode="decimal"
              value={draft.hysteresis}
              onChange={(e) => set({ hysteresis: e.target.value })}
              hint="Cleared once the battery is back above the limit by more than this."
              error={at('hysteresis')}
            />
          </div>
        ) : null}
      </fieldset>

      <ScopeFields value={draft.scope} onChange={(scope) => set({ scope })} error={error} />

      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.email} onChange={(e) => set({ email: e.target.checked })} /> Also e-mail each alert raised and cleared
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending || update.isPending}>
          {rule ? 'Save rule' : 'Create rule'}
        </button>
      </div>
    </form>
  );
}
