import type { SeriesWire } from '@dts/domain';
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTranslation, currentLocale } from '../i18n';
import { num, utcText } from '../lib/format';
import { timeAxisRange, toChartData } from '../lib/series';

export const PALETTE = ['#0f766e', '#b45309', '#1d4ed8', '#a21caf', '#15803d', '#b91c1c'];

interface Props {
  series: SeriesWire;
  members: readonly string[];
  /** Unit and label per member (from the data types). */
  describe: (member: string) => { label: string; unit: string };
  height?: number;
  /** Only the legend under the chart (a dashboard's small widget): the summary stays in the chart's accessible name. */
  compact?: boolean;
}

const withAlpha = (hex: string, alpha: number) =>
  `${hex}${Math.round(alpha * 255)
    .toString(16)
    .padStart(2, '0')}`;

/**
 * Aggregated series as lines of the average with min–max bands where buckets hold several uplinks
 * (zoomed out). One y axis per unit. A text summary says the same for those who cannot see it.
 */
export function SeriesChart({ series, members, describe, height = 280, compact = false }: Props) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { data, lines } = useMemo(() => toChartData(series, members), [series, members]);
  const shape = lines.map((l) => `${l.member}:${l.min !== null}`).join(',');
  const [from, to] = timeAxisRange(series);
  // Read by the x scale's range whenever uPlot rescales: the chart is built once per set of lines.
  const axis = useRef<[number, number]>([from, to]);
  axis.current = [from, to];

  useEffect(() => {
    if (!element.current) return;
    const units = [...new Set(lines.map((l) => describe(l.member).unit))];
    const seriesOpts: uPlot.Series[] = [{ label: t('common.chart.time') }];
    const bands: uPlot.Band[] = [];
    lines.forEach((line, i) => {
      const color = PALETTE[i % PALETTE.length] ?? '#0f766e';
      const { label, unit } = describe(line.member);
      seriesOpts[line.avg] = {
        label: `${label} (${unit || '–'})`,
        stroke: color,
        width: 2,
        scale: unit || line.member,
        spanGaps: false,
        points: { show: series.t.length < 60 },
      };
      if (line.min !== null && line.max !== null) {
        seriesOpts[line.min] = { label: t('common.chart.min', { label }), stroke: withAlpha(color, 0.35), width: 1, scale: unit || line.member };
        seriesOpts[line.max] = { label: t('common.chart.max', { label }), stroke: withAlpha(color, 0.35), width: 1, scale: unit || line.member };
        bands.push({ series: [line.max, line.min], fill: withAlpha(color, 0.15) });
      }
    });
    const axes: uPlot.Axis[] = [
      { stroke: '#374151', grid: { stroke: '#e5e7eb' }, values: timeTicks },
      ...units.map(
        (unit, i) =>
          ({
            scale: unit || lines[0]?.member,
            side: i === 0 ? 3 : 1,
            label: unit,
            stroke: '#374151',
            grid: { show: i === 0, stroke: '#e5e7eb' },
          }) as uPlot.Axis,
      ),
    ];
    const width = element.current.clientWidth || 600;
    const u = new uPlot(
      {
        width,
        height,
        series: seriesOpts,
        bands,
        axes,
        scales: { x: { time: true, range: () => axis.current } },
        legend: { show: false },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        hooks: {
          // The time axis as drawn, on the element: what the browser tests hold to the chosen window.
          setScale: [
            (chart, key) => {
              if (key !== 'x') return;
              chart.root.parentElement?.setAttribute('data-x-min', String(chart.scales.x?.min ?? ''));
              chart.root.parentElement?.setAttribute('data-x-max', String(chart.scales.x?.max ?? ''));
            },
          ],
        },
      },
      data as uPlot.AlignedData,
      element.current,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: element.current?.clientWidth || width, height }));
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt when the set of lines changes; new data alone goes through setData below.
  }, [shape, height]);

  useEffect(() => {
    plot.current?.setData(data as uPlot.AlignedData);
    plot.current?.setScale('x', { min: from, max: to });
  }, [data, from, to]);

  const summary = lines
    .map((line) => {
      const m = series.members[line.member];
      const avg = (m?.avg ?? []).filter((v): v is number => v !== null);
      const { label, unit } = describe(line.member);
      if (avg.length === 0) return t('common.chart.noData', { label });
      return t('common.chart.summary', {
        label,
        latest: num(avg[avg.length - 1], 2, unit),
        lowest: num(Math.min(...((m?.min ?? avg).filter((v) => v !== null) as number[])), 2, unit),
        highest: num(Math.max(...((m?.max ?? avg).filter((v) => v !== null) as number[])), 2, unit),
      });
    })
    .join('; ');
  return (
    <figure className="chart" data-points={series.t.length} data-from={from} data-to={to}>
      <div ref={element} role="img" aria-label={t('common.chart.label', { lines: lines.map((l) => describe(l.member).label).join(', '), summary })} />
      <figcaption className="muted small">
        <span className="chart-legend">
          {lines.map((line, i) => (
            <span key={line.member}>
              <span className="swatch" style={{ background: PALETTE[i % PALETTE.length] }} aria-hidden /> {describe(line.member).label}
              {line.min !== null ? ` ${t('common.chart.band')}` : ''}
            </span>
          ))}
        </span>
        {compact ? null : (
          <>
            {t('common.chart.caption', { count: series.t.length, interval: series.interval, from: utcText(from), to: utcText(to) })} {summary}
          </>
        )}
      </figcaption>
    </figure>
  );
}

/**
 * The time axis's tick labels in the console's language, in UTC as every time of the console:
 * "16:30" in both, "28 Nov" and "28. Nov." for ticks a day or more apart (uPlot's own labels are
 * American English: "4:30pm", "11/28/26").
 */
function timeTicks(_u: uPlot, splits: number[], _axis: number, _space: number, increment: number): string[] {
  const options: Intl.DateTimeFormatOptions =
    increment >= 86_400 ? { day: 'numeric', month: 'short' } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  const format = new Intl.DateTimeFormat(currentLocale(), { ...options, timeZone: 'UTC' });
  return splits.map((unix) => format.format(new Date(unix * 1000)));
}
