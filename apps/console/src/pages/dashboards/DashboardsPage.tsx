import { DASHBOARD_NAME_MAX_LENGTH, DASHBOARD_SHARE_ROLES, type DashboardShareRole } from '@dts/domain';
import { LayoutDashboard, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { useActingOrganisation, useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SelectField, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, Notice, PageHeader } from '../../components/ui';
import { useCreateDashboard, useDashboards, useDeleteDashboard } from '../../hooks/dashboards';
import { Trans } from 'react-i18next';
import { useTranslation } from '../../i18n';
import { utcText } from '../../lib/format';

/** The dashboards the person sees where the console acts: opened, made (then edited at once), deleted. */
export function DashboardsPage() {
  const { t } = useTranslation();
  // A viewer reads the dashboards shared with them; making one takes an operator (docs/api.md §21).
  const operator = useCan('operator');
  const organisation = useActingOrganisation();
  const dashboards = useDashboards();
  const create = useCreateDashboard();
  const remove = useDeleteDashboard();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [share, setShare] = useState<DashboardShareRole | 'private'>('private');
  const [notice, setNotice] = useState('');
  const list = dashboards.data ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), shared_role: share === 'private' ? null : share }, { onSuccess: (made) => navigate(`/dashboards/${made.uid}?edit=1`) });
  };

  return (
    <>
      <PageHeader title={t('dashboards.title')} subtitle={organisation ? t('dashboards.list.subtitleShared') : t('dashboards.list.subtitle')} />
      <Notice text={notice} />
      <div className={operator ? 'dash-list-layout' : undefined}>
        <Card title={t('dashboards.list.yours')} id="dashboard-list">
          <ErrorBox error={dashboards.error ?? remove.error} />
          {dashboards.isPending ? <Loading what={t('dashboards.list.loading')} /> : null}
          {!dashboards.isPending && list.length === 0 ? <Empty>{operator ? t('dashboards.list.empty') : t('dashboards.list.emptyShared')}</Empty> : null}
          <ul className="dash-list">
            {list.map((d) => (
              <li key={d.uid}>
                <LayoutDashboard aria-hidden size={20} className="dash-list-icon" />
                <div className="dash-list-main">
                  <Link href={`/dashboards/${d.uid}`} className="dash-list-name">
                    {d.name}
                  </Link>
                  <span className="muted small">
                    {d.created_by
                      ? t('dashboards.list.infoMadeBy', { count: d.widgets.length, maker: d.created_by, changed: utcText(d.updated_unix) })
                      : t('dashboards.list.info', { count: d.widgets.length, changed: utcText(d.updated_unix) })}
                  </span>
                </div>
                <span className={`badge ${d.shared_role ? 'badge-info' : 'badge-off'}`}>{t(`dashboards.shareBadge.${d.shared_role ?? 'private'}`)}</span>
                {!d.editable || !operator ? <span className="badge">{t('dashboards.list.readOnly')}</span> : null}
                {d.editable && operator ? (
                  <ConfirmButton
                    label={<Trans t={t} i18nKey="dashboards.list.delete" values={{ name: d.name }} components={{ sr: <span className="sr-only" /> }} />}
                    confirm={t('dashboards.list.confirmDelete', { name: d.name })}
                    pending={remove.isPending}
                    onConfirm={() => remove.mutate(d.uid, { onSuccess: () => setNotice(t('dashboards.list.deleted', { name: d.name })) })}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
        {operator ? (
          <Card title={t('dashboards.list.new')} id="new-dashboard">
            <form onSubmit={submit} noValidate>
              <TextField
                label={t('dashboards.name')}
                value={name}
                maxLength={DASHBOARD_NAME_MAX_LENGTH}
                onChange={(e) => setName(e.target.value)}
                error={fieldError(create.error, 'name')}
                placeholder={t('dashboards.list.namePlaceholder')}
              />
              {organisation ? (
                <SelectField
                  label={t('dashboards.whoSees')}
                  value={share}
                  options={(['private', ...DASHBOARD_SHARE_ROLES] as const).map((r) => ({ value: r, label: t(`dashboards.share.${r}`) }))}
                  onChange={(e) => setShare(e.target.value as DashboardShareRole | 'private')}
                />
              ) : null}
              <ErrorBox error={create.error && !fieldError(create.error, 'name') ? create.error : null} />
              <button type="submit" className="primary" disabled={create.isPending}>
                <Plus aria-hidden size={16} /> {t('dashboards.list.create')}
              </button>
            </form>
          </Card>
        ) : null}
      </div>
    </>
  );
}
