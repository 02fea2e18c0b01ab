import type {
  AlertsWidgetOptions,
  ChartWidgetOptions,
  DashboardWidget,
  DeviceMetaWire,
  GaugeWidgetOptions,
  LatestWidgetOptions,
  MapWidgetOptions,
  SeriesQuery,
  SeriesWire,
} from '@dts/domain';
import { DASHBOARD_PERIOD_SECONDS } from '@dts/domain';
import { keepPreviousData, type UseQueryResult, useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { MapView, type MapMarker, type MapTrack } from '../../components/MapView';
import { PALETTE, SeriesChart } from '../../components/SeriesChart';
import { ErrorBox, Loading } from '../../components/ui';
import { useAlerts } from '../../hooks/alerts';
import { useLiveRowsOf, usePeriodStart } from '../../hooks/dashboards';
import { useNow } from '../../hooks/now';
import { trackQuery } from '../../hooks/uplinks';
import { latestValue, lineKey, mergeSeries } from '../../lib/dashboard-data';
import { deviceName, useDescribe } from './describe';
import { GAP_PX, ROW_PX } from './grid';
import { num, relativeTime } from '../../lib/format';

/** What a widget's frame takes of its height besides its content: the title bar and padding. */
const FRAME_PX = 58;

/** The pixels a widget's content has in h rows. */
export const contentHeight = (h: number) => h * ROW_PX + (h - 1) * GAP_PX - FRAME_PX;

/** The live content of a widget, sized to its h rows. */
export function WidgetBody({ widget, devices }: { widget: DashboardWidget; devices: ReadonlyMap<string, DeviceMetaWire> }) {
  const height = contentHeight(widget.h);
  switch (widget.kind) {
    case 'chart':
      return <ChartWidget options={widget.options} devices={devices} height={height} />;
    case 'latest':
      return <LatestWidget options={widget.options} devices={devices} />;
    case 'gauge':
      return <GaugeWidget options={widget.options} devices={devices} height={height} />;
    case 'map':
      return <MapWidget options={widget.options} devices={devices} height={height} />;
    case 'alerts':
      return <AlertsWidget options={widget.options} devices={devices} />;
  }
}

/**
 * The devices' answers as one (a function of the module: TanStack Query combines again only when an
 * answer changes, so the merged series keeps its identity between renders and the chart is not redrawn).
 */
function combineSeries(all: UseQueryResult<SeriesWire>[]) {
  return { error: all.find((r) => r.error)?.error ?? null, data: all.every((r) => r.data) ? all.map((r) => r.data!) : null };
}

function ChartWidget({ options, devices, height }: { options: ChartWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire>; height: number }) {
  const describe = useDescribe();
  const from = usePeriodStart(options.period);
  const query: SeriesQuery = useMemo(() => ({ members: options.members, from, interval: 'auto' }), [options.members, from]);
  // The same keys as the device page's chart: the live feed's refresh of a device's series reaches both.
  const results = useQueries({
    queries: options.devices.map((eui) => ({
      queryKey: keys.series(eui, query),
      queryFn: () => api.uplinks.series(eui, query),
      placeholderData: keepPreviousData,
    })),
    combine: combineSeries,
  });
  const failed = results.error;
  const merged = useMemo(
    () => (results.data ? mergeSeries(results.data.map((series, i) => ({ eui: options.devices[i]!, series }))) : null),
    [results.data, options.devices],
  );
  const lines = options.devices.flatMap((eui) => options.members.map((m) => lineKey(eui, m)));
  const describeLine = (key: string) => {
    const dot = key.indexOf('.');
    const eui = key.slice(0, dot);
    const { label, unit } = describe(key.slice(dot + 1));
    return { label: options.devices.length > 1 ? `${deviceName(devices, eui)} · ${label}` : label, unit };
  };
  if (failed) return <ErrorBox error={failed} />;
  if (!merged) return <Loading what="Loading the chart" />;
  if (merged.t.length === 0) return <p className="empty">No measurement in the last {options.period}.</p>;
  return <SeriesChart series={merged} members={lines} describe={describeLine} height={Math.max(120, height - 44)} compact />;
}

/** The newest value of one member of one device, live (the live feed writes new uplinks into the rows read here). */
function useLatest(device: string, member: string) {
  const [rows] = useLiveRowsOf([device]);
  const latest = rows?.data ? latestValue(rows.data, member) : null;
  return { latest, pending: rows?.isPending ?? true, error: rows?.error };
}

function LatestWidget({ options, devices }: { options: LatestWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire> }) {
  const describe = useDescribe();
  const now = useNow();
  const { latest, pending, error } = useLatest(options.device, options.member);
  const { label, unit } = describe(options.member);
  if (error) return <ErrorBox error={error} />;
  if (pending) return <Loading what="Loading the latest value" />;
  return (
    <div className="dash-latest">
      <p className="dash-value" data-testid="latest-value">
        {latest ? num(latest.value, 2) : '–'}
        {latest && unit ? <span className="dash-unit"> {unit}</span> : null}
      </p>
      <p className="muted small">
        {latest ? (
          <>
            <Link href={`/devices/${options.device}`}>{deviceName(devices, options.device)}</Link>, {relativeTime(latest.at, now)}
          </>
        ) : (
          <>
            No {label} in the latest uplinks of <Link href={`/devices/${options.device}`}>{deviceName(devices, options.device)}</Link>.
          </>
        )}
      </p>
    </div>
  );
}

/** Where on the arc a value lies, 0..1 (clamped: a value past the ends points at the end). */
export const gaugeShare = (value: number, min: number, max: number) => Math.min(1, Math.max(0, (value - min) / (max - min)));

/** A point on the gauge's circle: the arc runs over 240°, from lower left through the top to lower right. */
function arcPoint(share: number, r: number): [number, number] {
  const angle = ((-210 + 240 * share) * Math.PI) / 180;
  return [50 + r * Math.cos(angle), 55 + r * Math.sin(angle)];
}

function arcPath(from: number, to: number, r: number): string {
  const [x1, y1] = arcPoint(from, r);
  const [x2, y2] = arcPoint(to, r);
  const large = (to - from) * 240 > 180 ? 1 : 0;
  return `M ${x1.toFixed(2)} ${y1.toFixed(2)} A ${r} ${r} 0 ${large} 1 ${x2.toFixed(2)} ${y2.toFixed(2)}`;
}

/**
 * A gauge as SVG: the arc from min to max, filled to the value. To assistive technology it is a
 * meter with its value, range and unit in words; the drawing itself is hidden from it.
 */
export function Gauge({
  value,
  min,
  max,
  unit,
  label,
  height,
}: {
  value: number | null;
  min: number;
  max: number;
  unit: string;
  label: string;
  height: number;
}) {
  const share = value === null ? 0 : gaugeShare(value, min, max);
  const text = value === null ? 'no value yet' : `${num(value, 2)}${unit ? ` ${unit}` : ''}`;
  const outside = value !== null && (value < min || value > max);
  return (
    <div
      className="dash-gauge"
      role="meter"
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value === null ? undefined : Math.min(max, Math.max(min, value))}
      aria-valuetext={`${text}, on a scale from ${num(min, 2)} to ${num(max, 2)}${unit ? ` ${unit}` : ''}${outside ? ' (outside the scale)' : ''}`}
    >
      <svg viewBox="0 0 100 86" style={{ maxHeight: `${Math.max(80, height - 24)}px` }} aria-hidden focusable="false">
        <path d={arcPath(0, 1, 40)} className="gauge-track" />
        {value !== null && share > 0.002 ? <path d={arcPath(0, share, 40)} className={outside ? 'gauge-fill gauge-outside' : 'gauge-fill'} /> : null}
        <text x="50" y="58" textAnchor="middle" className="gauge-value">
          {value === null ? '–' : num(value, 1)}
        </text>
        <text x="50" y="70" textAnchor="middle" className="gauge-unit">
          {unit}
        </text>
        <text x={arcPoint(0, 40)[0]} y="84" textAnchor="middle" className="gauge-end">
          {num(min, 1)}
        </text>
        <text x={arcPoint(1, 40)[0]} y="84" textAnchor="middle" className="gauge-end">
          {num(max, 1)}
        </text>
      </svg>
    </div>
  );
}

function GaugeWidget({ options, devices, height }: { options: GaugeWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire>; height: number }) {
  const describe = useDescribe();
  const now = useNow();
  const { latest, pending, error } = useLatest(options.device, options.member);
  const { label, unit } = describe(options.member);
  if (error) return <ErrorBox error={error} />;
  if (pending) return <Loading what="Loading the latest value" />;
  return (
    <div className="dash-gauge-wrap">
      <Gauge
        value={latest?.value ?? null}
        min={options.min}
        max={options.max}
        unit={unit}
        label={`${label} of ${deviceName(devices, options.device)}`}
        height={height - 20}
      />
      <p className="muted small">{latest ? `Updated ${relativeTime(latest.at, now)}` : `No ${label} in the latest uplinks.`}</p>
    </div>
  );
}

function MapWidget({ options, devices, height }: { options: MapWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire>; height: number }) {
  // The start stays where it was when the widget appeared: a track grows with live positions instead of being read again each minute.
  const [from] = useState(() => Math.floor(Date.now() / 1000) - DASHBOARD_PERIOD_SECONDS[options.period]);
  const tracks = useQueries({ queries: options.devices.map((eui) => trackQuery(eui, from)) });
  const markers: MapMarker[] = [];
  const lines: MapTrack[] = [];
  options.devices.forEach((eui, i) => {
    const color = PALETTE[i % PALETTE.length] ?? '#0f766e';
    const points = (tracks[i]?.data ?? []).map(([, lat, lon]) => [lat, lon] as [number, number]);
    const meta = devices.get(eui);
    const last = points.at(-1) ?? (meta && meta.lat !== null && meta.lon !== null ? ([meta.lat, meta.lon] as [number, number]) : undefined);
    if (last) markers.push({ id: eui, lat: last[0], lon: last[1], label: deviceName(devices, eui), color });
    if (points.length > 1) lines.push({ id: eui, points, color });
  });
  const failed = tracks.find((t) => t.error)?.error;
  if (failed) return <ErrorBox error={failed} />;
  if (tracks.some((t) => t.isPending)) return <Loading what="Loading the tracks" />;
  if (markers.length === 0) return <p className="empty">No position in the last {options.period}.</p>;
  return (
    <MapView
      label={`Positions and tracks of ${options.devices.map((e) => deviceName(devices, e)).join(', ')} over the last ${options.period}`}
      markers={markers}
      tracks={lines}
      height={`${Math.max(140, height)}px`}
      content="the tracks"
    />
  );
}

function AlertsWidget({ options, devices }: { options: AlertsWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire> }) {
  const now = useNow();
  const one = options.devices.length === 1 ? options.devices[0] : undefined;
  const alerts = useAlerts({ ...(options.state === 'active' ? { state: 'active' as const } : {}), ...(one ? { eui: one } : {}), limit: 50 });
  const wanted = new Set(options.devices);
  const list = (alerts.data?.alerts ?? []).filter((a) => wanted.size === 0 || wanted.has(a.devEUI)).slice(0, 50);
  if (alerts.error) return <ErrorBox error={alerts.error} />;
  if (alerts.isPending) return <Loading what="Loading alerts" />;
  if (list.length === 0) return <p className="empty">{options.state === 'active' ? 'No active alert.' : 'No alert yet.'}</p>;
  return (
    <ul className="dash-alerts">
      {list.map((a) => (
        <li key={a.uid}>
          <span className={`badge ${a.state === 'active' ? 'badge-bad' : 'badge-off'}`}>{a.state}</span>
          <span className="dash-alert-text">
            <Link href={`/alerts?eui=${a.devEUI}`}>{a.message}</Link>
            <span className="muted small">
              {' '}
              {deviceName(devices, a.devEUI)}, {relativeTime(a.raised_unix, now)}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
