import { DASHBOARD_NAME_MAX_LENGTH, DASHBOARD_SHARE_ROLES, type DashboardShareRole } from '@dts/domain';
import { LayoutDashboard, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { useActingOrganisation, useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SelectField, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useCreateDashboard, useDashboards, useDeleteDashboard } from '../../hooks/dashboards';
import { plural, utcText } from '../../lib/format';
import { SHARE_BADGE, SHARE_TEXT } from './DashboardEditor';

/** The dashboards the person sees where the console acts: opened, made (then edited at once), deleted. */
export function DashboardsPage() {
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
      <PageHeader
        title="Dashboards"
        subtitle={
          organisation
            ? 'Charts, latest values, gauges, maps and alerts of your devices, live. Shared dashboards are seen by the members of the role they name.'
            : 'Charts, latest values, gauges, maps and alerts of your devices, live.'
        }
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <div className={operator ? 'dash-list-layout' : undefined}>
        <Card title="Your dashboards" id="dashboard-list">
          <ErrorBox error={dashboards.error ?? remove.error} />
          {dashboards.isPending ? <Loading what="Loading dashboards" /> : null}
          {!dashboards.isPending && list.length === 0 ? (
            <Empty>{operator ? 'No dashboard yet: make the first one.' : 'No dashboard is shared with you here yet.'}</Empty>
          ) : null}
          <ul className="dash-list">
            {list.map((d) => (
              <li key={d.uid}>
                <LayoutDashboard aria-hidden size={20} className="dash-list-icon" />
                <div className="dash-list-main">
                  <Link href={`/dashboards/${d.uid}`} className="dash-list-name">
                    {d.name}
                  </Link>
                  <span className="muted small">
                    {plural(d.widgets.length, 'widget')}
                    {d.created_by ? `, made by ${d.created_by}` : ''}, changed {utcText(d.updated_unix)} UTC
                  </span>
                </div>
                <span className={`badge ${d.shared_role ? 'badge-info' : 'badge-off'}`}>{d.shared_role ? SHARE_BADGE[d.shared_role] : 'Private'}</span>
                {!d.editable || !operator ? <span className="badge">Read-only</span> : null}
                {d.editable && operator ? (
                  <ConfirmButton
                    label={
                      <>
                        Delete<span className="sr-only"> {d.name}</span>
                      </>
                    }
                    confirm={`Delete the dashboard ${d.name}?`}
                    pending={remove.isPending}
                    onConfirm={() => remove.mutate(d.uid, { onSuccess: () => setNotice(`Dashboard ${d.name} deleted.`) })}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
        {operator ? (
          <Card title="New dashboard" id="new-dashboard">
            <form onSubmit={submit} noValidate>
              <TextField
                label="Name"
                value={name}
                maxLength={DASHBOARD_NAME_MAX_LENGTH}
                onChange={(e) => setName(e.target.value)}
                error={fieldError(create.error, 'name')}
                placeholder="Cold store"
              />
              {organisation ? (
                <SelectField
                  label="Who sees it"
                  value={share}
                  options={(['private', ...DASHBOARD_SHARE_ROLES] as const).map((r) => ({ value: r, label: SHARE_TEXT[r] }))}
                  onChange={(e) => setShare(e.target.value as DashboardShareRole | 'private')}
                />
              ) : null}
              <ErrorBox error={create.error && !fieldError(create.error, 'name') ? create.error : null} />
              <button type="submit" className="primary" disabled={create.isPending}>
                <Plus aria-hidden size={16} /> Create and add widgets
              </button>
            </form>
          </Card>
        ) : null}
      </div>
    </>
  );
}
