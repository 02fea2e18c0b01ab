import { isOnline } from '@dts/domain';
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { MapView } from '../components/MapView';
import { Card, ErrorBox, Loading, OnlineBadge, PageHeader } from '../components/ui';
import { useAllDevices, useConsoleConfig } from '../hooks/devices';
import { useNow } from '../hooks/now';
import { useTranslation } from '../i18n';
import { deviceMarkers, OFFLINE_COLOUR as OFFLINE, ONLINE_COLOUR as ONLINE, placedDevices } from '../lib/device-map';
import { relativeTime } from '../lib/format';

/** The devices listed under the map (all are on it). */
const LISTED = 200;

/** Every device with a position on one map, green online and red offline; a click opens the device. */
export function MapOverviewPage() {
  const { t } = useTranslation();
  const devices = useAllDevices();
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const [, navigate] = useLocation();
  const placed = useMemo(() => placedDevices(devices.data ?? []), [devices.data]);
  const markers = useMemo(
    () => deviceMarkers(placed, threshold, now, { online: t('common.online'), offline: t('common.offline') }),
    [placed, threshold, now, t],
  );
  return (
    <>
      <PageHeader
        title={t('map.title')}
        subtitle={devices.data ? t('map.placed', { count: placed.length, devices: t('common.ofDevices', { count: devices.data.length }) }) : undefined}
      />
      <ErrorBox error={devices.error} />
      {devices.isPending ? (
        <Loading what={t('map.loading')} />
      ) : (
        <MapView label={t('map.label')} markers={markers} onSelect={(eui) => navigate(`/devices/${eui}`)} height="60vh" content={t('map.content')} />
      )}
      <p className="legend muted small">
        <span className="swatch" style={{ background: ONLINE }} aria-hidden /> {t('common.online')}{' '}
        <span className="swatch" style={{ background: OFFLINE }} aria-hidden /> {t('common.offline')}
      </p>
      <Card title={t('map.listTitle')} id="map-list">
        <ul className="plain-list">
          {placed.slice(0, LISTED).map(({ d }) => (
            <li key={d.devEUI}>
              <Link href={`/devices/${d.devEUI}`}>{d.label || d.devEUI}</Link> <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} />{' '}
              <span className="muted small">{relativeTime(d.ts_activity_last_unix, now)}</span>
            </li>
          ))}
        </ul>
        {placed.length > LISTED ? <p className="muted small">{t('map.listed', { shown: LISTED })}</p> : null}
      </Card>
    </>
  );
}
