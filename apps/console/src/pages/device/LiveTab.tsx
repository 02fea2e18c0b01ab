import type { DeviceMetaWire, UplinkRecordWire } from '@dts/domain';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { MapView } from '../../components/MapView';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useLiveRows, useTrack } from '../../hooks/uplinks';
import { useTranslation } from '../../i18n';
import { RANGES } from '../../lib/series';
import { ChartCard } from './ChartCard';
import { UplinkRows } from './UplinkRows';

/** Members a chart can show, in the order offered. */
const CHARTABLE = ['temperature', 'humidity', 'pressure', 'co2', 'illuminance', 'battery_voltage', 'battery_percent', 'RSSI', 'SNR', 'ALT'];

/** The numeric members the latest uplinks carry: what the chart offers for this device. */
export function membersOf(rows: readonly UplinkRecordWire[]): string[] {
  const present = new Set<string>();
  for (const row of rows.slice(0, 20)) {
    for (const m of CHARTABLE) {
      const column = (row as unknown as Record<string, unknown>)[m];
      const decoded = row.payload_decoded[m];
      if (typeof column === 'number' || typeof decoded === 'number' || (m === 'RSSI' && row.uplink.RSSI !== null) || (m === 'SNR' && row.uplink.SNR !== null))
        present.add(m);
    }
  }
  return CHARTABLE.filter((m) => present.has(m));
}

/** The device now: uplinks arriving live, a chart of its measurements, its track on a map. */
export function LiveTab({ device }: { device: DeviceMetaWire }) {
  const { t } = useTranslation();
  const eui = device.devEUI;
  const live = useLiveRows(eui);
  const rows = live.data ?? [];
  const offered = useMemo(() => membersOf(rows), [rows]);
  const [trackFrom] = useState(() => Math.floor(Date.now() / 1000) - RANGES['24h']);
  const track = useTrack(eui, trackFrom);
  const points = (track.data ?? []).map(([, lat, lon]) => [lat, lon] as [number, number]);
  const markers = [];
  const latest = points.at(-1);
  if (latest)
    markers.push({
      id: 'latest',
      lat: latest[0],
      lon: latest[1],
      label: t('device.live.latest', { label: device.label }),
      color: '#0f766e',
    });
  else if (device.lat !== null && device.lon !== null)
    markers.push({ id: 'latest', lat: device.lat, lon: device.lon, label: t('device.live.lastKnown', { label: device.label }), color: '#0f766e' });
  if (device.installation_lat !== null && device.installation_lon !== null)
    markers.push({
      id: 'installation',
      lat: device.installation_lat,
      lon: device.installation_lon,
      label: t('device.live.installation', { label: device.label }),
      color: '#6b7280',
      ring: true,
    });

  return (
    <div className="device-grid">
      <ChartCard eui={eui} offered={offered} />
      <Card title={t('device.live.map')} id="map">
        {markers.length || points.length ? (
          <MapView
            label={t('device.live.track', { label: device.label })}
            markers={markers}
            tracks={points.length > 1 ? [{ id: 'track', points, color: '#0f766e' }] : []}
            height="320px"
            content={t('device.live.trackContent')}
          />
        ) : (
          <p className="empty">{t('device.live.noPosition')}</p>
        )}
        <p className="muted small">{t('device.live.positions', { count: points.length })}</p>
      </Card>
      <Card title={t('device.live.title')} id="live-uplinks">
        <ErrorBox error={live.error} />
        {live.isPending ? <Loading what={t('device.live.loading')} /> : null}
        {!live.isPending && rows.length === 0 ? (
          <p className="empty">
            {t('device.live.waiting')} <Link href={`/devices/${eui}/connect`}>{t('device.live.connect')}</Link>
          </p>
        ) : null}
        {rows.length > 0 ? <UplinkRows caption={t('device.live.caption')} rows={rows} maxHeight="360px" /> : null}
      </Card>
    </div>
  );
}
