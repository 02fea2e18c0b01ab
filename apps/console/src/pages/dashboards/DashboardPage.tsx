import type { DashboardWidget } from '@dts/domain';
import { Pencil } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useActingOrganisation, useCan } from '../../api/organisation';
import { ErrorBox, Loading, Notice, PageHeader } from '../../components/ui';
import { useDashboard, useUpdateDashboard } from '../../hooks/dashboards';
import { useAllDevices } from '../../hooks/devices';
import { readingOrder } from '../../lib/dashboard-layout';
import { useTranslation } from '../../i18n';
import { DashboardEditor } from './DashboardEditor';
import { defaultTitle, useDescribe } from './describe';
import { WidgetBody } from './widgets';

/**
 * One dashboard: its widgets in the grid, live (the live feed keeps the series, latest uplinks,
 * tracks and alerts they read current). Its maker, or an admin for a shared one, edits it here.
 */
export function DashboardPage({ uid }: { uid: string }) {
  const { t } = useTranslation();
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

  if (dashboard.isPending) return <Loading what={t('dashboards.page.loading')} />;
  if (!d)
    return (
      <>
        <PageHeader title={t('dashboards.page.title')} />
        <ErrorBox error={dashboard.error} />
        <p>
          <Link href="/dashboards">{t('dashboards.page.all')}</Link>
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
            <Link href="/dashboards">{t('dashboards.title')}</Link>
            {' · '}
            {d.created_by
              ? t('dashboards.page.madeBy', { share: t(`dashboards.shareBadge.${d.shared_role ?? 'private'}`), maker: d.created_by })
              : t(`dashboards.shareBadge.${d.shared_role ?? 'private'}`)}
            {!mayEdit ? ` · ${t('dashboards.page.readOnly')}` : ''}
          </>
        }
        actions={
          mayEdit && !editing ? (
            <button type="button" className="primary" onClick={() => setEditing(true)}>
              <Pencil aria-hidden size={16} /> {t('dashboards.page.edit')}
            </button>
          ) : null
        }
      />
      <Notice text={notice} />
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
                  setNotice(t('dashboards.page.saved', { name: saved.name }));
                  leaveEditing();
                },
              },
            )
          }
        />
      ) : (
        <>
          {d.widgets.length === 0 ? <p className="empty">{mayEdit ? t('dashboards.page.empty') : t('dashboards.page.emptyReadOnly')}</p> : null}
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
