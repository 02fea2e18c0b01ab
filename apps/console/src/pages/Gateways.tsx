import type { GatewayWire } from '@dts/domain';
import { useState } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '../components/DataTable';
import { MapView } from '../components/MapView';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../components/ui';
import { nameOf, useDatamodel } from '../hooks/datamodel';
import { useGateways } from '../hooks/gateways';
import { useNetworks } from '../hooks/networks';
import { useNow } from '../hooks/now';
import { num, plural, relativeTime, utcText } from '../lib/format';

/** The gateways that heard the account's devices: a table and a map, from the receptions the networks report. */
export function GatewaysPage() {
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
    label: `${g.gateway_id}: ${plural(g.uplinks_24h, 'uplink')} in 24 hours`,
    color: g.gateway_id === selected ? '#b45309' : '#1d4ed8',
    ring: g.gateway_id === selected,
  }));
  const columns: Column<GatewayWire>[] = [
    {
      key: 'id',
      header: 'Gateway',
      className: 'mono',
      render: (g) => (
        <span data-gateway={g.gateway_id} className={g.gateway_id === selected ? 'selected' : undefined}>
          {g.gateway_id}
        </span>
      ),
    },
    { key: 'network', header: 'Network', render: (g) => networkName(g.network_ref) },
    {
      key: 'seen',
      header: 'Last seen',
      className: 'nowrap',
      render: (g) => <span title={utcText(g.last_seen_unix)}>{relativeTime(g.last_seen_unix, now)}</span>,
    },
    { key: 'uplinks', header: 'Uplinks (24 h)', className: 'num', render: (g) => g.uplinks_24h },
    { key: 'rssi', header: 'Mean RSSI (24 h)', className: 'num', render: (g) => num(g.rssi_avg, 0, 'dBm') },
    {
      key: 'position',
      header: 'Position',
      className: 'nowrap mono',
      render: (g) => (g.lat === null || g.lon === null ? <span className="muted">not reported</span> : `${g.lat.toFixed(5)}, ${g.lon.toFixed(5)}`),
    },
  ];

  return (
    <>
      <PageHeader title="Gateways" subtitle="The gateways that heard your devices, from what your networks report with each uplink." />
      <ErrorBox error={gateways.error} />
      {gateways.isPending ? <Loading what="Loading gateways" /> : null}
      {gateways.data && list.length === 0 ? (
        <Card title="No gateways yet" id="gateways-empty">
          <Empty>
            Gateways appear here by themselves once uplinks arrive from The Things Stack or ChirpStack: each uplink names the gateways that heard it, with their
            signal and, when the network knows it, their position. A REST uplink can list them too, in its <code>gateways</code> member. Uplinks from the
            simulated network have none.
          </Empty>
          <p>
            <Link href="/networks">Connect a network</Link> to get started.
          </p>
        </Card>
      ) : null}
      {list.length > 0 ? (
        <div className="gateways-layout">
          <Card title={plural(list.length, 'gateway')} id="gateways">
            <DataTable caption="Gateways that heard your devices" columns={columns} rows={list} rowKey={(g) => g.gateway_id} maxHeight="60vh" />
          </Card>
          <Card title="Map" id="gateways-map">
            {placed.length > 0 ? (
              <MapView label="Positions of the gateways" markers={markers} onSelect={setSelected} height="420px" content="every gateway" />
            ) : (
              <Empty>No gateway has reported a position.</Empty>
            )}
            {list.length - placed.length === 1 && placed.length > 0 ? (
              <p className="muted small">One gateway has not reported a position: it is in the table only.</p>
            ) : null}
            {list.length - placed.length > 1 && placed.length > 0 ? (
              <p className="muted small">{list.length - placed.length} gateways have not reported a position: they are in the table only.</p>
            ) : null}
          </Card>
        </div>
      ) : null}
    </>
  );
}
