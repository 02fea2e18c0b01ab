import type { FenceWire, RuleWire } from '@dts/domain';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Card, Empty, ErrorBox, Loading, Notice, PageHeader } from '../../components/ui';
import { useFences } from '../../hooks/fences';
import { useDeleteRule, useRules, useUpdateRule } from '../../hooks/rules';
import { i18n, useTranslation } from '../../i18n';
import { RuleForm } from './RuleForm';
import { scopeText } from './ScopeFields';
import { TableHead } from '../../components/TableHead';

/** What a rule watches for, in one line, in the console's language. */
export function ruleCondition(rule: RuleWire, fences: readonly FenceWire[]): string {
  const t = i18n.t;
  switch (rule.kind) {
    case 'fence': {
      const fence = fences.find((f) => f.uid === rule.fence)?.name ?? t('rules.condition.fenceNumber', { uid: rule.fence });
      return rule.on === 'enter' ? t('rules.condition.enters', { fence }) : t('rules.condition.leaves', { fence });
    }
    case 'offline':
      return t('rules.condition.offline', { minutes: rule.minutes });
    case 'threshold': {
      const member = rule.member;
      if (rule.above !== null)
        return rule.hysteresis
          ? t('rules.condition.aboveBand', { member, limit: rule.above, band: rule.hysteresis })
          : t('rules.condition.above', { member, limit: rule.above });
      return rule.hysteresis
        ? t('rules.condition.belowBand', { member, limit: rule.below, band: rule.hysteresis })
        : t('rules.condition.below', { member, limit: rule.below });
    }
    case 'battery': {
      const limit = rule.below;
      if (rule.measure === 'percent')
        return rule.hysteresis ? t('rules.condition.batteryPercentBand', { limit, band: rule.hysteresis }) : t('rules.condition.batteryPercent', { limit });
      return rule.hysteresis ? t('rules.condition.batteryVoltBand', { limit, band: rule.hysteresis }) : t('rules.condition.batteryVolt', { limit });
    }
  }
}

/** Alert rules: listed with what each watches, made and changed one kind at a time, switched off, deleted. */
export function RulesPage() {
  const { t } = useTranslation();
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
        title={t('rules.title')}
        subtitle={<Trans t={t} i18nKey="rules.subtitle" components={{ alerts: <Link href="/alerts" /> }} />}
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
              <Plus aria-hidden size={16} /> {t('rules.newRule')}
            </button>
          ) : null
        }
      />
      <Notice text={notice} />
      {editing !== null && (editing === 'new' || current) ? (
        <Card title={current ? t('rules.edit', { name: current.name }) : t('rules.newRule')} id="rule-form">
          <RuleForm
            key={editing}
            rule={current}
            onCancel={() => setEditing(null)}
            onDone={(rule) => {
              setEditing(null);
              setNotice(t('rules.saved', { name: rule.name }));
            }}
          />
        </Card>
      ) : null}
      <Card title={t('rules.listTitle')} id="rules">
        {rules.isPending ? <Loading what={t('rules.loading')} /> : null}
        <ErrorBox error={rules.error ?? update.error ?? remove.error} />
        {rules.data && list.length === 0 ? <Empty>{operator ? t('rules.noneOperator') : t('rules.none')}</Empty> : null}
        {list.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static stack-table">
              <TableHead
                caption={t('rules.title')}
                columns={[
                  t('rules.table.name'),
                  t('rules.table.kind'),
                  t('rules.table.condition'),
                  t('rules.table.devices'),
                  t('rules.table.email'),
                  t('rules.table.state'),
                ]}
                actions={operator ? t('rules.table.actions') : undefined}
              />
              <tbody>
                {list.map((r) => (
                  <tr key={r.uid} data-rule={r.uid}>
                    <td data-label={t('rules.table.name')}>{r.name}</td>
                    <td data-label={t('rules.table.kind')}>{t(`rules.kindShort.${r.kind}`)}</td>
                    <td data-label={t('rules.table.condition')} className="wrap">
                      {ruleCondition(r, fences.data ?? [])}
                    </td>
                    <td data-label={t('rules.table.devices')} className="small wrap">
                      {scopeText(r.devices)}
                    </td>
                    <td data-label={t('rules.table.email')}>{r.email ? t('rules.yes') : t('rules.no')}</td>
                    <td data-label={t('rules.table.state')}>
                      {r.enabled ? <span className="badge badge-ok">{t('rules.enabled')}</span> : <span className="badge badge-off">{t('rules.off')}</span>}
                    </td>
                    {operator ? (
                      <td>
                        <span className="row-actions">
                          <button
                            type="button"
                            className="small"
                            aria-label={t('rules.edit', { name: r.name })}
                            onClick={() => {
                              setNotice('');
                              setEditing(r.uid);
                            }}
                          >
                            <Pencil aria-hidden size={14} /> {t('rules.editButton')}
                          </button>
                          <button
                            type="button"
                            className="small"
                            aria-label={r.enabled ? t('rules.switchOffLabel', { name: r.name }) : t('rules.switchOnLabel', { name: r.name })}
                            disabled={update.isPending}
                            onClick={() => update.mutate({ uid: r.uid, body: { enabled: !r.enabled } })}
                          >
                            {r.enabled ? t('rules.switchOff') : t('rules.switchOn')}
                          </button>
                          <ConfirmButton
                            label={t('rules.delete')}
                            confirm={t('rules.confirmDelete', { name: r.name })}
                            pending={remove.isPending}
                            onConfirm={() => remove.mutate(r.uid, { onSuccess: () => setNotice(t('rules.deleted', { name: r.name })) })}
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
