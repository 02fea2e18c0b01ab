import type { UplinkRecordWire } from '@dts/domain';
import { type Column, DataTable } from '../../components/DataTable';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from '../../i18n';
import { num, utcText } from '../../lib/format';

/** The decoded payload as one line of `member: value`. */
function decodedText(decoded: Record<string, unknown>): string {
  return Object.entries(decoded)
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

const columns = (t: TFunction): Column<UplinkRecordWire>[] => [
  { key: 'time', header: t('device.uplinks.columns.received'), className: 'nowrap mono', render: (r) => utcText(r.uplink.time_stamp_unix) },
  { key: 'port', header: t('device.uplinks.columns.port'), className: 'num', render: (r) => r.payload_port },
  { key: 'hex', header: t('device.uplinks.columns.payload'), className: 'mono clip', render: (r) => r.payload_hex },
  {
    key: 'decoded',
    header: t('device.uplinks.columns.decoded'),
    className: 'clip',
    render: (r) =>
      r.payload_valid === false ? (
        <span title={r.payload_errors.join('\n') || undefined}>
          <span className="badge badge-bad">{t('device.uplinks.columns.invalid')}</span>{' '}
          {r.payload_errors.join('; ') || decodedText(r.payload_decoded) || t('device.uplinks.columns.refused')}
        </span>
      ) : r.payload_warnings.length > 0 ? (
        <span title={r.payload_warnings.join('\n')}>
          <span className="badge badge-warn">{t('device.uplinks.columns.warnings', { count: r.payload_warnings.length })}</span>{' '}
          {decodedText(r.payload_decoded) || '–'}
        </span>
      ) : (
        decodedText(r.payload_decoded) || '–'
      ),
  },
  { key: 'rssi', header: t('device.uplinks.columns.rssi'), className: 'num', render: (r) => num(r.uplink.RSSI, 0, 'dBm') },
  { key: 'snr', header: t('device.uplinks.columns.snr'), className: 'num', render: (r) => num(r.uplink.SNR, 1, 'dB') },
  { key: 'sf', header: t('device.uplinks.columns.sf'), className: 'num', render: (r) => (r.uplink.SF === null ? '–' : `SF${r.uplink.SF}`) },
  { key: 'network', header: t('device.uplinks.columns.network'), render: (r) => r.uplink.network },
];

export function UplinkRows({
  caption,
  rows,
  onEndReached,
  maxHeight,
}: {
  caption: string;
  rows: readonly UplinkRecordWire[];
  onEndReached?: () => void;
  maxHeight?: string;
}) {
  const { t } = useTranslation();
  const COLUMNS = useMemo(() => columns(t), [t]);
  return (
    <DataTable caption={caption} columns={COLUMNS} rows={rows} rowKey={(r) => r.uplink.uid} onEndReached={onEndReached} maxHeight={maxHeight} rowHeight={40} />
  );
}
