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
import { Trans } from 'react-i18next';
import { useTranslation } from '../../i18n';

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
  const { t } = useTranslation();
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
  if (!merged) return <Loading what={t('dashboards.widgets.loadingChart')} />;
  if (merged.t.length === 0) return <p className="empty">{t('dashboards.widgets.noMeasurement', { period: options.period })}</p>;
  return <SeriesChart series={merged} members={lines} describe={describeLine} height={Math.max(120, height - 44)} compact />;
}

/** The newest value of one member of one device, live (the live feed writes new uplinks into the rows read here). */
function useLatest(device: string, member: string) {
  const [rows] = useLiveRowsOf([device]);
  const latest = rows?.data ? latestValue(rows.data, member) : null;
  return { latest, pending: rows?.isPending ?? true, error: rows?.error };
}

function LatestWidget({ options, devices }: { options: LatestWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire> }) {
  const { t } = useTranslation();
  const describe = useDescribe();
  const now = useNow();
  const { latest, pending, error } = useLatest(options.device, options.member);
  const { label, unit } = describe(options.member);
  if (error) return <ErrorBox error={error} />;
  if (pending) return <Loading what={t('dashboards.widgets.loadingLatest')} />;
  return (
    <div className="dash-latest">
      <p className="dash-value" data-testid="latest-value">
        {latest ? num(latest.value, 2) : '–'}
        {latest && unit ? <span className="dash-unit"> {unit}</span> : null}
      </p>
      <p className="muted small">
        <Trans
          t={t}
          i18nKey={latest ? 'dashboards.widgets.latestAt' : 'dashboards.widgets.latestNone'}
          values={{ device: deviceName(devices, options.device), when: latest ? relativeTime(latest.at, now) : '', label }}
          components={{ device: <Link href={`/devices/${options.device}`} /> }}
        />
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
  const { t } = useTranslation();
  const share = value === null ? 0 : gaugeShare(value, min, max);
  const withUnit = (text: string) => (unit ? `${text} ${unit}` : text);
  const text = value === null ? t('dashboards.widgets.meter.noValue') : withUnit(num(value, 2));
  const outside = value !== null && (value < min || value > max);
  return (
    <div
      className="dash-gauge"
      role="meter"
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value === null ? undefined : Math.min(max, Math.max(min, value))}
      aria-valuetext={t(outside ? 'dashboards.widgets.meter.textOutside' : 'dashboards.widgets.meter.text', {
        value: text,
        min: num(min, 2),
        max: withUnit(num(max, 2)),
      })}
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
  const { t } = useTranslation();
  const describe = useDescribe();
  const now = useNow();
  const { latest, pending, error } = useLatest(options.device, options.member);
  const { label, unit } = describe(options.member);
  if (error) return <ErrorBox error={error} />;
  if (pending) return <Loading what={t('dashboards.widgets.loadingLatest')} />;
  return (
    <div className="dash-gauge-wrap">
      <Gauge
        value={latest?.value ?? null}
        min={options.min}
        max={options.max}
        unit={unit}
        label={t('dashboards.defaultTitle.ofDevice', { label, device: deviceName(devices, options.device) })}
        height={height - 20}
      />
      <p className="muted small">
        {latest ? t('dashboards.widgets.gaugeUpdated', { when: relativeTime(latest.at, now) }) : t('dashboards.widgets.gaugeNone', { label })}
      </p>
    </div>
  );
}

function MapWidget({ options, devices, height }: { options: MapWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire>; height: number }) {
  const { t } = useTranslation();
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
  if (tracks.some((t) => t.isPending)) return <Loading what={t('dashboards.widgets.loadingTracks')} />;
  if (markers.length === 0) return <p className="empty">{t('dashboards.widgets.noPosition', { period: options.period })}</p>;
  return (
    <MapView
      label={t('dashboards.widgets.mapLabel', { devices: options.devices.map((e) => deviceName(devices, e)).join(', '), period: options.period })}
      markers={markers}
      tracks={lines}
      height={`${Math.max(140, height)}px`}
      content={t('dashboards.widgets.mapContent')}
    />
  );
}

function AlertsWidget({ options, devices }: { options: AlertsWidgetOptions; devices: ReadonlyMap<string, DeviceMetaWire> }) {
  const { t } = useTranslation();
  const now = useNow();
  const one = options.devices.length === 1 ? options.devices[0] : undefined;
  const alerts = useAlerts({ ...(options.state === 'active' ? { state: 'active' as const } : {}), ...(one ? { eui: one } : {}), limit: 50 });
  const wanted = new Set(options.devices);
  const list = (alerts.data?.alerts ?? []).filter((a) => wanted.size === 0 || wanted.has(a.devEUI)).slice(0, 50);
  if (alerts.error) return <ErrorBox error={alerts.error} />;
  if (alerts.isPending) return <Loading what={t('dashboards.widgets.loadingAlerts')} />;
  if (list.length === 0) return <p className="empty">{options.state === 'active' ? t('dashboards.widgets.noActiveAlert') : t('dashboards.widgets.noAlert')}</p>;
  return (
    <ul className="dash-alerts">
      {list.map((a) => (
        <li key={a.uid}>
          <span className={`badge ${a.state === 'active' ? 'badge-bad' : 'badge-off'}`}>{t(`dashboards.widgets.alertState.${a.state}`)}</span>
          <span className="dash-alert-text">
            <Link href={`/alerts?eui=${a.devEUI}`}>{a.message}</Link>
            <span className="muted small">
              {' '}
              {t('dashboards.widgets.alertAt', { device: deviceName(devices, a.devEUI), when: relativeTime(a.raised_unix, now) })}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
