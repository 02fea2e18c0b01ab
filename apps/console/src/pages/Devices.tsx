import { type DeviceMetaWire, type DeviceSortKey, isOnline } from '@dts/domain';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { type Column, DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/form';
import { ErrorBox, Loading, OnlineBadge, PageHeader } from '../components/ui';
import { useConsoleConfig, useDeviceList } from '../hooks/devices';
import { nameOf, useDatamodel } from '../hooks/datamodel';
import { useNow } from '../hooks/now';
import { num, plural, relativeTime, tagsText } from '../lib/format';
import { readListState, toggleSort, writeListState, type ListState } from '../lib/list-state';
import { RegisterDeviceDialog } from './RegisterDevice';
import { useCan } from '../api/organisation';

/** Every device of the account: searched, filtered and sorted by the service, scrolled through in pages. */
export function DevicesPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = readListState(search);
  const setState = (next: Partial<ListState>) => navigate(`/devices${writeListState({ ...state, ...next })}`, { replace: true });
  const [text, setText] = useState(state.q);
  const [folder, setFolder] = useState(state.folder);
  const [registering, setRegistering] = useState(false);
  const list = useDeviceList(state);
  const datamodel = useDatamodel().data;
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.devices) ?? [], [list.data]);
  const total = list.data?.pages[0]?.meta.total;

  const columns: Column<DeviceMetaWire>[] = [
    {
      key: 'label',
      header: 'Device',
      sortKey: 'label',
      render: (d) => (
        <Link href={`/devices/${d.devEUI}`} className="row-link">
          {d.label || d.devEUI}
        </Link>
      ),
    },
    { key: 'eui', header: 'EUI', sortKey: 'eui', className: 'mono', render: (d) => d.devEUI },
    { key: 'type', header: 'Type', sortKey: 'type', render: (d) => nameOf(datamodel?.device_types, d.type_ref, 'type_name') },
    { key: 'icon', header: 'Icon', render: (d) => nameOf(datamodel?.icons, d.icon_ref, 'label') },
    {
      key: 'last_seen',
      header: 'Last seen',
      sortKey: 'last_seen',
      render: (d) => (
        <span className="nowrap">
          <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} /> {relativeTime(d.ts_activity_last_unix, now)}
        </span>
      ),
    },
    {
      key: 'battery',
      header: 'Battery',
      sortKey: 'battery',
      className: 'num',
      render: (d) => (d.battery_percent !== null ? num(d.battery_percent, 0, '%') : num(d.battery_voltage, 2, 'V')),
    },
    {
      key: 'signal',
      header: 'Signal',
      sortKey: 'signal',
      className: 'num',
      // The link margin the network last reported (ChirpStack status), beside the last heard signal.
      render: (d) => (d.margin_db === null ? num(d.signal_dbm, 0, 'dBm') : `${num(d.signal_dbm, 0, 'dBm')} · margin ${num(d.margin_db, 0, 'dB')}`),
    },
    { key: 'firmware', header: 'Firmware', sortKey: 'firmware', render: (d) => d.firmware_version ?? '–' },
    { key: 'folder', header: 'Folder', sortKey: 'folder', render: (d) => d.folder ?? '–' },
    { key: 'tags', header: 'Tags', render: (d) => tagsText(d.tags) || '–' },
  ];

  const operator = useCan('operator');
  return (
    <>
      <PageHeader
        title="Devices"
        subtitle={
          total !== undefined ? `${plural(total, 'device')}${state.q || state.folder || state.typeRef || state.online !== null ? ' match' : ''}` : undefined
        }
        actions={
          operator ? (
            <button type="button" className="primary" onClick={() => setRegistering(true)}>
              <Plus aria-hidden size={16} /> Register a device
            </button>
          ) : undefined
        }
      />
      <form
        className="toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setState({ q: text, folder });
        }}
      >
        <TextField
          label="Search"
          placeholder="Label, EUI or folder"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => text !== state.q && setState({ q: text })}
        />
        <TextField
          label="Folder"
          placeholder="Any folder"
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
          onBlur={() => folder !== state.folder && setState({ folder })}
        />
        <SelectField
          label="Type"
          empty="Any type"
          value={state.typeRef ?? ''}
          options={(datamodel?.device_types ?? []).map((t) => ({ value: t.uid, label: t.type_name }))}
          onChange={(e) => setState({ typeRef: e.target.value ? Number(e.target.value) : null })}
        />
        <SelectField
          label="State"
          empty="Online or offline"
          value={state.online === null ? '' : String(state.online)}
          options={[
            { value: 'true', label: 'Online' },
            { value: 'false', label: 'Offline' },
          ]}
          onChange={(e) => setState({ online: e.target.value === '' ? null : e.target.value === 'true' })}
        />
        <button type="submit" className="sr-only">
          Search
        </button>
      </form>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Loading what="Loading devices" />
      ) : (
        <DataTable
          caption="Devices"
          columns={columns}
          rows={rows}
          rowKey={(d) => d.devEUI}
          sort={state.sort}
          onSort={(key) => setState({ sort: toggleSort(state.sort, key as DeviceSortKey) })}
          total={total}
          onEndReached={() => {
            if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
          }}
        />
      )}
      {rows.length === 0 && !list.isPending ? <p className="empty">No device matches. Register one, or change the filters.</p> : null}
      {registering ? <RegisterDeviceDialog onClose={() => setRegistering(false)} onRegistered={(eui) => navigate(`/devices/${eui}`)} /> : null}
    </>
  );
}
