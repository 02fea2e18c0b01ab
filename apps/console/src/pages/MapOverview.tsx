import { isOnline } from '@dts/domain';
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { MapView } from '../components/MapView';
import { Card, ErrorBox, Loading, OnlineBadge, PageHeader } from '../components/ui';
import { useAllDevices, useConsoleConfig } from '../hooks/devices';
import { useNow } from '../hooks/now';
import { plural, relativeTime } from '../lib/format';

const ONLINE = '#15803d';
const OFFLINE = '#b91c1c';

/** Every device with a position on one map, green online and red offline; a click opens the device. */
export function MapOverviewPage() {
  const devices = useAllDevices();
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const [, navigate] = useLocation();
  const placed = useMemo(
    () =>
      (devices.data ?? [])
        .map((d) => ({ d, lat: d.lat ?? d.installation_lat, lon: d.lon ?? d.installation_lon }))
        .filter((x): x is { d: (typeof x)['d']; lat: number; lon: number } => x.lat !== null && x.lon !== null),
    [devices.data],
  );
  const markers = useMemo(
    () =>
      placed.map(({ d, lat, lon }) => {
        const online = isOnline(d.ts_activity_last_unix, threshold, now);
        return { id: d.devEUI, lat, lon, label: `${d.label || d.devEUI} (${online ? 'online' : 'offline'})`, color: online ? ONLINE : OFFLINE };
      }),
    [placed, threshold, now],
  );
  return (
    <>
      <PageHeader
        title="Map"
        subtitle={
          devices.data
            ? `${placed.length.toLocaleString('en')} of ${plural(devices.data.length, 'device')} ${placed.length === 1 ? 'has' : 'have'} a position.`
            : undefined
        }
      />
      <ErrorBox error={devices.error} />
      {devices.isPending ? (
        <Loading what="Loading devices" />
      ) : (
        <MapView label="Every device with a position" markers={markers} onSelect={(eui) => navigate(`/devices/${eui}`)} height="60vh" content="every device" />
      )}
      <p className="legend muted small">
        <span className="swatch" style={{ background: ONLINE }} aria-hidden /> online <span className="swatch" style={{ background: OFFLINE }} aria-hidden />{' '}
        offline
      </p>
      <Card title="Devices on the map" id="map-list">
        <ul className="plain-list">
          {placed.slice(0, 200).map(({ d }) => (
            <li key={d.devEUI}>
              <Link href={`/devices/${d.devEUI}`}>{d.label || d.devEUI}</Link> <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} />{' '}
              <span className="muted small">{relativeTime(d.ts_activity_last_unix, now)}</span>
            </li>
          ))}
        </ul>
        {placed.length > 200 ? <p className="muted small">The first 200 are listed; all are on the map.</p> : null}
      </Card>
    </>
  );
}
