import type { GatewayWire } from '@dts/domain';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { type Column, DataTable } from '../components/DataTable';
import { MapView } from '../components/MapView';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../components/ui';
import { nameOf, useDatamodel } from '../hooks/datamodel';
import { useGateways } from '../hooks/gateways';
import { useNetworks } from '../hooks/networks';
import { useNow } from '../hooks/now';
import { useTranslation } from '../i18n';
import { count, num, relativeTime, utcText } from '../lib/format';

/** The gateways that heard the account's devices: a table and a map, from the receptions the networks report. */
export function GatewaysPage() {
  const { t } = useTranslation();
  const gateways = useGateways();
  const datamodel = useDatamodel().data;
  const networks = useNetworks().data;
  const now = useNow();
  const [selected, setSelected] = useState<string | null>(null);
  const list = gateways.data ?? [];
  const networkName = (uid: number | null) => (uid === null ? '–' : (networks?.find((n) => n.uid === uid)?.name ?? nameOf(datamodel?.networks, uid, 'name')));
  const placed = list.filter((g) => g.lat !== null && g.lon !== null);
  const markers = placed.map((g) => ({
    id: g.gateway_id,
    lat: g.lat!,
    lon: g.lon!,
    label: t('gateways.map.marker', { id: g.gateway_id, count: g.uplinks_24h }),
    color: g.gateway_id === selected ? '#b45309' : '#1d4ed8',
    ring: g.gateway_id === selected,
  }));
  const columns: Column<GatewayWire>[] = [
    {
      key: 'id',
      header: t('gateways.columns.gateway'),
      className: 'mono',
      render: (g) => (
        <span data-gateway={g.gateway_id} className={g.gateway_id === selected ? 'selected' : undefined}>
          {g.gateway_id}
        </span>
      ),
    },
    { key: 'network', header: t('gateways.columns.network'), render: (g) => networkName(g.network_ref) },
    {
      key: 'seen',
      header: t('gateways.columns.seen'),
      className: 'nowrap',
      render: (g) => <span title={utcText(g.last_seen_unix)}>{relativeTime(g.last_seen_unix, now)}</span>,
    },
    { key: 'uplinks', header: t('gateways.columns.uplinks'), className: 'num', render: (g) => count(g.uplinks_24h) },
    { key: 'rssi', header: t('gateways.columns.rssi'), className: 'num', render: (g) => num(g.rssi_avg, 0, 'dBm') },
    {
      key: 'position',
      header: t('gateways.columns.position'),
      className: 'nowrap mono',
      render: (g) =>
        g.lat === null || g.lon === null ? <span className="muted">{t('gateways.columns.notReported')}</span> : `${g.lat.toFixed(5)}, ${g.lon.toFixed(5)}`,
    },
  ];

  return (
    <>
      <PageHeader title={t('gateways.title')} subtitle={t('gateways.subtitle')} />
      <ErrorBox error={gateways.error} />
      {gateways.isPending ? <Loading what={t('gateways.loading')} /> : null}
      {gateways.data && list.length === 0 ? (
        <Card title={t('gateways.empty.title')} id="gateways-empty">
          <Empty>
            <Trans t={t} i18nKey="gateways.empty.text" components={{ code: <code /> }} />
          </Empty>
          <p>
            <Trans t={t} i18nKey="gateways.empty.connect" components={{ networks: <Link href="/networks" /> }} />
          </p>
        </Card>
      ) : null}
      {list.length > 0 ? (
        <div className="gateways-layout">
          <Card title={t('gateways.count', { count: list.length })} id="gateways">
            <DataTable caption={t('gateways.caption')} columns={columns} rows={list} rowKey={(g) => g.gateway_id} maxHeight="60vh" />
          </Card>
          <Card title={t('gateways.map.title')} id="gateways-map">
            {placed.length > 0 ? (
              <MapView label={t('gateways.map.label')} markers={markers} onSelect={setSelected} height="420px" content={t('gateways.map.content')} />
            ) : (
              <Empty>{t('gateways.map.none')}</Empty>
            )}
            {list.length - placed.length > 0 && placed.length > 0 ? (
              <p className="muted small">{t('gateways.map.unplaced', { count: list.length - placed.length })}</p>
            ) : null}
          </Card>
        </div>
      ) : null}
    </>
  );
}
