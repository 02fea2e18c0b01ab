import type { SeriesInterval } from '@dts/domain';
import { useEffect, useMemo, useState } from 'react';
import { SeriesChart } from '../../components/SeriesChart';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { useDatamodel } from '../../hooks/datamodel';
import { useSeries } from '../../hooks/uplinks';
import { RANGES, type RangeName } from '../../lib/series';
import { useTranslation } from '../../i18n';

const toInput = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 16);
const fromInput = (text: string) => Math.floor(Date.parse(`${text}:00Z`) / 1000);

/**
 * A chart of the chosen members over 1 h, 24 h, 7 d, 30 d or a chosen range (UTC), from the
 * aggregated series route. A range ending now moves with the clock as new uplinks arrive.
 */
export function ChartCard({ eui, offered }: { eui: string; offered: readonly string[] }) {
  const { t } = useTranslation();
  const dataTypes = useDatamodel().data?.data_types;
  const [range, setRange] = useState<RangeName | 'custom'>('24h');
  const [custom, setCustom] = useState(() => ({ from: toInput(Date.now() / 1000 - 86_400), to: toInput(Date.now() / 1000) }));
  const [chosen, setChosen] = useState<string[] | null>(null);
  const members = chosen ?? offered.slice(0, 2);
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), 60_000);
    return () => clearInterval(timer);
  }, []);
  const span = useMemo(() => {
    if (range !== 'custom') return { from: now - RANGES[range], to: undefined as number | undefined };
    return { from: fromInput(custom.from), to: fromInput(custom.to) };
  }, [range, custom, now]);
  const valid = Number.isFinite(span.from) && (span.to === undefined || (Number.isFinite(span.to) && span.to >= span.from));
  const series = useSeries(
    eui,
    { members, from: span.from, ...(span.to !== undefined ? { to: span.to } : {}), interval: 'auto' as SeriesInterval | 'auto' },
    valid,
  );
  const describe = (member: string) => {
    const type = dataTypes?.find((dt) => dt.alias === member);
    return { label: type?.label ?? member, unit: type?.unit ?? '' };
  };
  const toggle = (member: string) => setChosen(members.includes(member) ? members.filter((m) => m !== member) : [...members, member]);

  return (
    <Card title={t('device.chart.title')} id="chart">
      <div className="chart-controls">
        <fieldset className="segmented">
          <legend className="sr-only">{t('device.chart.range')}</legend>
          {/* The ranges' codes, shown as they are ("24h") but the last; not texts. */}
          {/* eslint-disable-next-line i18next/no-literal-string */}
          {(['1h', '24h', '7d', '30d', 'custom'] as const).map((r) => (
            <label key={r} className={range === r ? 'active' : undefined}>
              <input type="radio" name={`range-${eui}`} value={r} checked={range === r} onChange={() => setRange(r)} />
              {r === 'custom' ? t('device.chart.custom') : r}
            </label>
          ))}
        </fieldset>
        {range === 'custom' ? (
          <div className="custom-range">
            <label>
              {t('device.chart.from')} <input type="datetime-local" value={custom.from} onChange={(e) => setCustom({ ...custom, from: e.target.value })} />
            </label>
            <label>
              {t('device.chart.to')} <input type="datetime-local" value={custom.to} onChange={(e) => setCustom({ ...custom, to: e.target.value })} />
            </label>
          </div>
        ) : null}
        <fieldset className="members">
          <legend className="sr-only">{t('device.chart.members')}</legend>
          {offered.map((m) => (
            <label key={m} className="check">
              <input type="checkbox" checked={members.includes(m)} onChange={() => toggle(m)} /> {describe(m).label}
            </label>
          ))}
        </fieldset>
      </div>
      {!valid ? <p className="error-box">{t('device.chart.badRange')}</p> : null}
      <ErrorBox error={series.error} />
      {offered.length === 0 ? <p className="empty">{t('device.chart.empty')}</p> : null}
      {members.length > 0 && series.isPending && offered.length > 0 ? <Loading what={t('device.chart.loading')} /> : null}
      {series.data && members.length > 0 ? <SeriesChart series={series.data} members={members} describe={describe} /> : null}
    </Card>
  );
}
