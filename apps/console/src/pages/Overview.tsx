import type { ActivityEntryWire, AlertWire } from '@dts/domain';
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useCan } from '../api/organisation';
import { type MapTrack, MapView } from '../components/MapView';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useActiveAlerts } from '../hooks/alerts';
import { useActivity, useAllDevices, useConsoleConfig, useOverview } from '../hooks/devices';
import { useIntegrations } from '../hooks/integrations';
import { useNow } from '../hooks/now';
import { trackQuery } from '../hooks/uplinks';
import { useTranslation } from '../i18n';
import { deviceMarkers, OFFLINE_COLOUR as OFFLINE, ONLINE_COLOUR as ONLINE, placedDevices } from '../lib/device-map';
import { count, relativeTime, utcText } from '../lib/format';
import { integrationHealth } from '../lib/integration-health';

/** The devices whose last day's track the map draws: the most recently heard of those with a position. */
const TRACKED = 20;
const DAY = 86_400;

function Figure({ label, value, href, tone }: { label: string; value: number | undefined; href?: string; tone?: 'bad' | 'warn' }) {
  const body = (
    <>
      <span className="figure-value">{value === undefined ? '–' : count(value)}</span>
      <span className="figure-label">{label}</span>
    </>
  );
  const className = tone && value ? `figure figure-${tone}` : 'figure';
  return <li className={className}>{href ? <Link href={href}>{body}</Link> : <div>{body}</div>}</li>;
}

/**
 * The page an operator opens in the morning: how many devices are heard from, what is wrong now
 * (active alerts, failing deliveries), what happened lately, and every device on a map with its
 * last day's track. Live: events refresh the figures and the activity, alerts arrive in place.
 */
export function OverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview();
  const o = overview.data;
  return (
    <>
      <PageHeader title={t('overview.title')} subtitle={o ? t('overview.subtitle', { minutes: Math.round(o.online_threshold_s / 60) }) : undefined} />
      {overview.isPending ? <Loading /> : null}
      <ErrorBox error={overview.error} />
      <ul className="figures" aria-label={t('overview.figures.label')}>
        <Figure label={t('overview.figures.devices')} value={o?.devices.total} href="/devices" />
        <Figure label={t('overview.figures.online')} value={o?.devices.online} href="/devices?online=true" />
        <Figure label={t('overview.figures.offline')} value={o?.devices.offline} href="/devices?online=false" />
        <Figure label={t('overview.figures.silent')} value={o?.devices.silent} tone="warn" />
        <Figure label={t('overview.figures.neverSeen')} value={o?.devices.never_seen} />
        <Figure label={t('overview.figures.alerts')} value={o?.alerts_active} href="/alerts?state=active" tone="bad" />
        <Figure label={t('overview.figures.uplinks')} value={o?.uplinks_24h} />
        <Figure label={t('overview.figures.commands')} value={o?.commands_pending} />
        <Figure label={t('overview.figures.images')} value={o?.images} href="/camera-traps" />
      </ul>
      <div className="overview-grid">
        <DevicesMap />
        <div className="overview-side">
          <ActiveAlertsCard />
          <DeliveryHealthCard integrations={o?.integrations} />
        </div>
      </div>
      <ActivityCard />
    </>
  );
}

/** Every device with a position, green online and red offline, with the last day's track of the most recently heard. */
function DevicesMap() {
  const { t } = useTranslation();
  const devices = useAllDevices();
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const [, navigate] = useLocation();
  // The tracks start where the page opened: one cache entry per device (live positions are appended to it).
  const [from] = useState(() => Math.floor(Date.now() / 1000) - DAY);
  const placed = useMemo(() => placedDevices(devices.data ?? []), [devices.data]);
  const tracked = useMemo(
    () =>
      placed
        .filter(({ d }) => d.ts_activity_last_unix !== null && d.ts_activity_last_unix >= from)
        .sort((a, b) => (b.d.ts_activity_last_unix ?? 0) - (a.d.ts_activity_last_unix ?? 0))
        .slice(0, TRACKED)
        .map(({ d }) => d.devEUI),
    [placed, from],
  );
  const tracks = useQueries({ queries: tracked.map((eui) => trackQuery(eui, from)) });
  const markers = deviceMarkers(placed, threshold, now, { online: t('overview.map.online'), offline: t('overview.map.offline') });
  const lines: MapTrack[] = tracked.flatMap((eui, i) => {
    const points = (tracks[i]?.data ?? []).map(([, lat, lon]) => [lat, lon] as [number, number]);
    return points.length > 1 ? [{ id: eui, points, color: '#0f766e' }] : [];
  });
  return (
    <Card title={t('overview.map.title')} id="overview-map">
      <ErrorBox error={devices.error} />
      {devices.isPending ? (
        <Loading what={t('overview.map.loading')} />
      ) : placed.length === 0 ? (
        <p className="empty">{t('overview.map.empty')}</p>
      ) : (
        <>
          <MapView
            label={t('overview.map.label')}
            markers={markers}
            tracks={lines}
            onSelect={(eui) => navigate(`/devices/${eui}`)}
            height="380px"
            content={t('overview.map.content')}
          />
          <p className="legend muted small">
            <span className="swatch" style={{ background: ONLINE }} aria-hidden /> {t('overview.map.online')}{' '}
            <span className="swatch" style={{ background: OFFLINE }} aria-hidden /> {t('overview.map.offline')} ·{' '}
            {t('overview.map.placed', { placed: placed.length, total: devices.data?.length ?? 0 })}
            {lines.length > 0 ? ` · ${t('overview.map.tracks', { count: lines.length })}` : ''}
          </p>
        </>
      )}
    </Card>
  );
}

const SHOWN_ALERTS = 6;

function ActiveAlertsCard() {
  const { t } = useTranslation();
  const active = useActiveAlerts();
  const list = active.data?.alerts ?? [];
  const now = useNow();
  return (
    <Card title={t('overview.alerts.title')} id="overview-alerts" actions={<Link href="/alerts?state=active">{t('overview.alerts.all')}</Link>}>
      <ErrorBox error={active.error} />
      {active.isPending ? (
        <Loading what={t('overview.alerts.loading')} />
      ) : list.length === 0 ? (
        <p className="empty">{t('overview.alerts.empty')}</p>
      ) : (
        <ul className="plain-list alert-lines">
          {list.slice(0, SHOWN_ALERTS).map((a: AlertWire) => (
            <li key={a.uid} data-alert={a.uid}>
              <span className="alert-message">{a.message}</span>
              <span className="muted small">
                {' '}
                · <Link href={`/devices/${a.devEUI}`}>{a.devEUI}</Link> · {a.rule.name} ·{' '}
                {t('overview.alerts.raised', { when: relativeTime(a.raised_unix, now) })}
                {a.acknowledged ? ` · ${t('overview.alerts.acknowledged')}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {list.length > SHOWN_ALERTS ? <p className="muted small">{t('overview.alerts.more', { count: list.length - SHOWN_ALERTS })}</p> : null}
    </Card>
  );
}

/** Integrations at a glance; the failing and disabled ones named for those who may open them (admins). */
function DeliveryHealthCard({ integrations }: { integrations: { total: number; failing: number; disabled: number } | undefined }) {
  const { t } = useTranslation();
  const admin = useCan('admin');
  return (
    <Card
      title={t('overview.deliveries.title')}
      id="overview-deliveries"
      actions={admin ? <Link href="/integrations">{t('overview.deliveries.link')}</Link> : undefined}
    >
      {integrations === undefined ? null : integrations.total === 0 ? (
        <p className="empty">{admin ? t('overview.deliveries.noneAdmin') : t('overview.deliveries.none')}</p>
      ) : (
        <>
          <p data-health={integrations.failing + integrations.disabled === 0 ? 'ok' : 'bad'}>
            {integrations.failing + integrations.disabled === 0
              ? t('overview.deliveries.allOk', { count: integrations.total })
              : t('overview.deliveries.troubled', {
                  ok: integrations.total - integrations.failing - integrations.disabled,
                  total: integrations.total,
                  failing: integrations.failing,
                  disabled: integrations.disabled,
                })}
          </p>
          {admin && integrations.failing + integrations.disabled > 0 ? <TroubledIntegrations /> : null}
        </>
      )}
    </Card>
  );
}

/** The integrations not delivering, each with its health as the Integrations page says it (lib/integration-health.ts). */
function TroubledIntegrations() {
  const list = useIntegrations();
  const troubled = (list.data ?? []).map((i) => ({ i, health: integrationHealth(i) })).filter(({ health }) => health.tone === 'bad' || health.tone === 'off');
  return (
    <ul className="plain-list">
      {troubled.map(({ i, health }) => (
        <li key={i.uid} data-health={health.state}>
          <Link href="/integrations">{i.name}</Link> <span className="muted small">{health.detail ?? health.label}</span>
        </li>
      ))}
    </ul>
  );
}

function ActivityCard() {
  const { t } = useTranslation();
  const activityText = (a: ActivityEntryWire): string => {
    switch (a.kind) {
      case 'seen':
        return t('overview.activity.seen');
      case 'command':
        return t('overview.activity.command', { what: a.text ?? '', state: a.state ?? '' });
      case 'alert':
        return a.state === 'active' ? t('overview.activity.raised', { text: a.text ?? '' }) : t('overview.activity.cleared', { text: a.text ?? '' });
    }
  };
  const activity = useActivity();
  const now = useNow();
  return (
    <Card title={t('overview.activity.title')} id="overview-activity">
      <ErrorBox error={activity.error} />
      {activity.isPending ? (
        <Loading what={t('overview.activity.loading')} />
      ) : (activity.data ?? []).length === 0 ? (
        <p className="empty">{t('overview.activity.empty')}</p>
      ) : (
        <ol className="plain-list activity-lines">
          {activity.data!.map((a) => (
            <li key={`${a.kind}-${a.uid ?? a.devEUI}-${a.at_unix}`} data-kind={a.kind}>
              <time dateTime={new Date(a.at_unix * 1000).toISOString()} title={utcText(a.at_unix)} className="muted small activity-time">
                {relativeTime(a.at_unix, now)}
              </time>
              <Link href={`/devices/${a.devEUI}`}>{a.label || a.devEUI}</Link> <span className={`activity-${a.kind}`}>{activityText(a)}</span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
