import type { DeviceMetaWire, UplinkRecordWire } from '@dts/domain';
import { useMemo, useState } from 'react';
import { MapView } from '../../components/MapView';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useLiveRows, useTrack } from '../../hooks/uplinks';
import { plural } from '../../lib/format';
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
      label: `${device.label}: latest position`,
      color: '#0f766e',
    });
  else if (device.lat !== null && device.lon !== null)
    markers.push({ id: 'latest', lat: device.lat, lon: device.lon, label: `${device.label}: last known position`, color: '#0f766e' });
  if (device.installation_lat !== null && device.installation_lon !== null)
    markers.push({
      id: 'installation',
      lat: device.installation_lat,
      lon: device.installation_lon,
      label: `${device.label}: installation position`,
      color: '#6b7280',
      ring: true,
    });

  return (
    <div className="device-grid">
      <ChartCard eui={eui} offered={offered} />
      <Card title="Map" id="map">
        {markers.length || points.length ? (
          <MapView
            label={`Track of ${device.label} over the last 24 hours`}
            markers={markers}
            tracks={points.length > 1 ? [{ id: 'track', points, color: '#0f766e' }] : []}
            height="320px"
            content="the track and the latest position"
          />
        ) : (
          <p className="empty">No position yet: the track appears with the first uplink that carries one, or set the installation position in Settings.</p>
        )}
        <p className="muted small">{plural(points.length, 'position')} in the last 24 hours.</p>
      </Card>
      <Card title="Live uplinks" id="live-uplinks">
        <ErrorBox error={live.error} />
        {live.isPending ? <Loading what="Loading the latest uplinks" /> : null}
        {!live.isPending && rows.length === 0 ? <p className="empty">Waiting for the first uplink…</p> : null}
        {rows.length > 0 ? <UplinkRows caption="Latest uplinks, newest first, updated live" rows={rows} maxHeight="360px" /> : null}
      </Card>
    </div>
  );
}
