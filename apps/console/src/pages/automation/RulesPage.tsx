import type { FenceWire, RuleWire } from '@dts/domain';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useFences } from '../../hooks/fences';
import { useDeleteRule, useRules, useUpdateRule } from '../../hooks/rules';
import { RuleForm } from './RuleForm';
import { scopeText } from './ScopeFields';

/** What a rule watches for, in one line. */
export function ruleCondition(rule: RuleWire, fences: readonly FenceWire[]): string {
  switch (rule.kind) {
    case 'fence': {
      const fence = fences.find((f) => f.uid === rule.fence)?.name ?? `fence ${rule.fence}`;
      return rule.on === 'enter' ? `Enters ${fence}` : `Leaves ${fence}`;
    }
    case 'offline':
      return `No uplink for ${rule.minutes} min`;
    case 'threshold': {
      const band = rule.hysteresis ? ` (± ${rule.hysteresis})` : '';
      return rule.above !== null ? `${rule.member} above ${rule.above}${band}` : `${rule.member} below ${rule.below}${band}`;
    }
    case 'battery': {
      const band = rule.hysteresis ? ` (± ${rule.hysteresis})` : '';
      return rule.measure === 'percent' ? `Battery below ${rule.below} %${band}` : `Battery below ${rule.below} V${band}`;
    }
  }
}

const KIND_SHORT: Record<RuleWire['kind'], string> = { fence: 'Fence', offline: 'Offline', threshold: 'Threshold', battery: 'Battery' };

/** Alert rules: listed with what each watches, made and changed one kind at a time, switched off, deleted. */
export function RulesPage() {
  const operator = useCan('operator');
  const rules = useRules();
  const fences = useFences();
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [notice, setNotice] = useState('');
  const list = rules.data ?? [];
  const current = typeof editing === 'number' ? list.find((r) => r.uid === editing) : undefined;

  return (
    <>
      <PageHeader
        title="Alert rules"
        subtitle={
          <>
            What raises an alert, for which devices. Alerts raised are listed on the <Link href="/alerts">Alerts</Link> page.
          </>
        }
        actions={
          operator && editing === null ? (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setNotice('');
                setEditing('new');
              }}
            >
              <Plus aria-hidden size={16} /> New rule
            </button>
          ) : null
        }
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {editing !== null && (editing === 'new' || current) ? (
        <Card title={current ? `Edit ${current.name}` : 'New rule'} id="rule-form">
          <RuleForm
            key={editing}
            rule={current}
            onCancel={() => setEditing(null)}
            onDone={(rule) => {
              setEditing(null);
              setNotice(`Rule ${rule.name} saved.`);
            }}
          />
        </Card>
      ) : null}
      <Card title="Rules" id="rules">
        {rules.isPending ? <Loading what="Loading rules" /> : null}
        <ErrorBox error={rules.error ?? update.error ?? remove.error} />
        {rules.data && list.length === 0 ? (
          <Empty>
            {operator ? 'No rules yet. Make one with “New rule”: a fence left, a device gone quiet, a value too high, a battery running low.' : 'No rules yet.'}
          </Empty>
        ) : null}
        {list.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static stack-table">
              <caption className="sr-only">Alert rules</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Condition</th>
                  <th scope="col">Devices</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">State</th>
                  {operator ? (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.map((r) => (
                  <tr key={r.uid} data-rule={r.uid}>
                    <td data-label="Name">{r.name}</td>
                    <td data-label="Kind">{KIND_SHORT[r.kind]}</td>
                    <td data-label="Condition" className="wrap">
                      {ruleCondition(r, fences.data ?? [])}
                    </td>
                    <td data-label="Devices" className="small wrap">
                      {scopeText(r.devices)}
                    </td>
                    <td data-label="E-mail">{r.email ? 'Yes' : 'No'}</td>
                    <td data-label="State">{r.enabled ? <span className="badge badge-ok">enabled</span> : <span className="badge badge-off">off</span>}</td>
                    {operator ? (
                      <td>
                        <span className="row-actions">
                          <button
                            type="button"
                            className="small"
                            aria-label={`Edit ${r.name}`}
                            onClick={() => {
                              setNotice('');
                              setEditing(r.uid);
                            }}
                          >
                            <Pencil aria-hidden size={14} /> Edit
                          </button>
                          <button
                            type="button"
                            className="small"
                            aria-label={r.enabled ? `Switch off ${r.name}` : `Switch on ${r.name}`}
                            disabled={update.isPending}
                            onClick={() => update.mutate({ uid: r.uid, body: { enabled: !r.enabled } })}
                          >
                            {r.enabled ? 'Switch off' : 'Switch on'}
                          </button>
                          <ConfirmButton
                            label="Delete"
                            confirm={`Delete the rule ${r.name}? Its alerts stay listed.`}
                            pending={remove.isPending}
                            onConfirm={() => remove.mutate(r.uid, { onSuccess: () => setNotice(`Rule ${r.name} deleted.`) })}
                          />
                        </span>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </>
  );
}
