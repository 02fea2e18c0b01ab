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
import { useTranslation } from '../i18n';
import { num, relativeTime, tagsText } from '../lib/format';
import { readListState, toggleSort, writeListState, type ListState } from '../lib/list-state';
import { RegisterDeviceDialog } from './RegisterDevice';
import { useCan } from '../api/organisation';

/** Every device of the account: searched, filtered and sorted by the service, scrolled through in pages. */
export function DevicesPage() {
  const { t } = useTranslation();
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
      header: t('devices.columns.device'),
      sortKey: 'label',
      render: (d) => (
        <Link href={`/devices/${d.devEUI}`} className="row-link">
          {d.label || d.devEUI}
        </Link>
      ),
    },
    { key: 'eui', header: t('devices.columns.eui'), sortKey: 'eui', className: 'mono', render: (d) => d.devEUI },
    { key: 'type', header: t('devices.columns.type'), sortKey: 'type', render: (d) => nameOf(datamodel?.device_types, d.type_ref, 'type_name') },
    { key: 'icon', header: t('devices.columns.icon'), render: (d) => nameOf(datamodel?.icons, d.icon_ref, 'label') },
    {
      key: 'last_seen',
      header: t('devices.columns.lastSeen'),
      sortKey: 'last_seen',
      render: (d) => (
        <span className="nowrap">
          <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} /> {relativeTime(d.ts_activity_last_unix, now)}
        </span>
      ),
    },
    {
      key: 'battery',
      header: t('devices.columns.battery'),
      sortKey: 'battery',
      className: 'num',
      render: (d) => (d.battery_percent !== null ? num(d.battery_percent, 0, '%') : num(d.battery_voltage, 2, 'V')),
    },
    {
      key: 'signal',
      header: t('devices.columns.signal'),
      sortKey: 'signal',
      className: 'num',
      // The link margin the network last reported (ChirpStack status), beside the last heard signal.
      render: (d) =>
        d.margin_db === null
          ? num(d.signal_dbm, 0, 'dBm')
          : t('devices.columns.signalMargin', { signal: num(d.signal_dbm, 0, 'dBm'), margin: num(d.margin_db, 0, 'dB') }),
    },
    { key: 'firmware', header: t('devices.columns.firmware'), sortKey: 'firmware', render: (d) => d.firmware_version ?? '–' },
    { key: 'folder', header: t('devices.columns.folder'), sortKey: 'folder', render: (d) => d.folder ?? '–' },
    { key: 'tags', header: t('devices.columns.tags'), render: (d) => tagsText(d.tags) || '–' },
  ];

  const operator = useCan('operator');
  return (
    <>
      <PageHeader
        title={t('devices.title')}
        subtitle={
          total !== undefined
            ? t(state.q || state.folder || state.typeRef || state.online !== null ? 'devices.matching' : 'devices.total', { count: total })
            : undefined
        }
        actions={
          operator ? (
            <button type="button" className="primary" onClick={() => setRegistering(true)}>
              <Plus aria-hidden size={16} /> {t('devices.register')}
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
          label={t('devices.filters.search')}
          placeholder={t('devices.filters.searchPlaceholder')}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => text !== state.q && setState({ q: text })}
        />
        <TextField
          label={t('devices.filters.folder')}
          placeholder={t('devices.filters.folderPlaceholder')}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
          onBlur={() => folder !== state.folder && setState({ folder })}
        />
        <SelectField
          label={t('devices.filters.type')}
          empty={t('devices.filters.anyType')}
          value={state.typeRef ?? ''}
          options={(datamodel?.device_types ?? []).map((dt) => ({ value: dt.uid, label: dt.type_name }))}
          onChange={(e) => setState({ typeRef: e.target.value ? Number(e.target.value) : null })}
        />
        <SelectField
          label={t('devices.filters.state')}
          empty={t('devices.filters.anyState')}
          value={state.online === null ? '' : String(state.online)}
          options={[
            { value: 'true', label: t('devices.filters.online') },
            { value: 'false', label: t('devices.filters.offline') },
          ]}
          onChange={(e) => setState({ online: e.target.value === '' ? null : e.target.value === 'true' })}
        />
        <button type="submit" className="sr-only">
          {t('devices.filters.search')}
        </button>
      </form>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Loading what={t('devices.loading')} />
      ) : (
        <DataTable
          caption={t('devices.title')}
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
      {rows.length === 0 && !list.isPending ? <p className="empty">{t('devices.empty')}</p> : null}
      {registering ? <RegisterDeviceDialog onClose={() => setRegistering(false)} onRegistered={(eui) => navigate(`/devices/${eui}`)} /> : null}
    </>
  );
}
