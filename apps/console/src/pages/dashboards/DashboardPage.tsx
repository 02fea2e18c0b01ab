import type { DashboardWidget } from '@dts/domain';
import { Pencil } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useActingOrganisation, useCan } from '../../api/organisation';
import { ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDashboard, useUpdateDashboard } from '../../hooks/dashboards';
import { useAllDevices } from '../../hooks/devices';
import { readingOrder } from '../../lib/dashboard-layout';
import { DashboardEditor, SHARE_BADGE } from './DashboardEditor';
import { defaultTitle, useDescribe } from './describe';
import { WidgetBody } from './widgets';

/**
 * One dashboard: its widgets in the grid, live (the live feed keeps the series, latest uplinks,
 * tracks and alerts they read current). Its maker, or an admin for a shared one, edits it here.
 */
export function DashboardPage({ uid }: { uid: string }) {
  const id = Number(uid);
  const dashboard = useDashboard(id);
  const devices = useAllDevices();
  const update = useUpdateDashboard();
  const operator = useCan('operator');
  const organisation = useActingOrganisation();
  const search = useSearch();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(() => new URLSearchParams(search).has('edit'));
  const [notice, setNotice] = useState('');
  const describe = useDescribe();
  const byEui = useMemo(() => new Map((devices.data ?? []).map((d) => [d.devEUI, d])), [devices.data]);
  const d = dashboard.data;
  const mayEdit = !!d?.editable && operator;

  if (dashboard.isPending) return <Loading what="Loading the dashboard" />;
  if (!d)
    return (
      <>
        <PageHeader title="Dashboard" />
        <ErrorBox error={dashboard.error} />
        <p>
          <Link href="/dashboards">All dashboards</Link>
        </p>
      </>
    );

  const leaveEditing = () => {
    setEditing(false);
    update.reset();
    if (search) navigate(`/dashboards/${d.uid}`, { replace: true });
  };

  return (
    <>
      <PageHeader
        title={d.name}
        subtitle={
          <>
            <Link href="/dashboards">Dashboards</Link>
            {' · '}
            {d.shared_role ? SHARE_BADGE[d.shared_role] : 'Private'}
            {d.created_by ? `, made by ${d.created_by}` : ''}
            {!mayEdit ? ' · read-only' : ''}
          </>
        }
        actions={
          mayEdit && !editing ? (
            <button type="button" className="primary" onClick={() => setEditing(true)}>
              <Pencil aria-hidden size={16} /> Edit
            </button>
          ) : null
        }
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {editing && mayEdit ? (
        <DashboardEditor
          initial={d}
          devices={devices.data ?? []}
          shareable={organisation !== null}
          saving={update.isPending}
          error={update.error}
          onCancel={leaveEditing}
          onSave={(state) =>
            update.mutate(
              { uid: d.uid, body: { name: state.name, shared_role: state.shared_role, widgets: state.widgets } },
              {
                onSuccess: (saved) => {
                  setNotice(`Dashboard ${saved.name} saved.`);
                  leaveEditing();
                },
              },
            )
          }
        />
      ) : (
        <>
          {d.widgets.length === 0 ? <p className="empty">{mayEdit ? 'No widget yet: Edit adds the first one.' : 'This dashboard has no widget yet.'}</p> : null}
          <div className="dash-grid">
            {readingOrder(d.widgets).map((w: DashboardWidget) => (
              <section
                key={w.id}
                className={`dash-widget dash-kind-${w.kind}`}
                style={{ gridColumn: `${w.x + 1} / span ${w.w}`, gridRow: `${w.y + 1} / span ${w.h}`, ['--rows' as string]: w.h }}
                aria-labelledby={`widget-${w.id}`}
              >
                <h2 id={`widget-${w.id}`} className="dash-widget-title">
                  {w.title || defaultTitle(w, byEui, describe)}
                </h2>
                <div className="dash-widget-body">
                  <WidgetBody widget={w} devices={byEui} />
                </div>
              </section>
            ))}
          </div>
        </>
      )}
    </>
  );
}
