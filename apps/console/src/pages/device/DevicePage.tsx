import { isOnline } from '@dts/domain';
import { ApiError } from '@dts/client';
import { Link } from 'wouter';
import { ErrorBox, Loading, OnlineBadge, PageHeader } from '../../components/ui';
import { useDatamodel } from '../../hooks/datamodel';
import { useConsoleConfig, useDevice } from '../../hooks/devices';
import { useHasPhotos } from '../../hooks/images';
import { useNow } from '../../hooks/now';
import { isCameraTrap } from '../../lib/camera-trap';
import { relativeTime, spacedEui } from '../../lib/format';
import { CommandsTab } from './CommandsTab';
import { ConnectTab } from './ConnectTab';
import { LiveTab } from './LiveTab';
import { PhotosTab } from './PhotosTab';
import { SettingsTab } from './SettingsTab';
import { UplinksTab } from './UplinksTab';
import { useCan } from '../../api/organisation';
import { DeviceAlerts } from '../automation/DeviceAlerts';

const TABS = [
  { id: 'live', label: 'Live' },
  { id: 'uplinks', label: 'Uplinks' },
  { id: 'commands', label: 'Commands' },
  { id: 'photos', label: 'Photos' },
  { id: 'connect', label: 'Connect' },
  { id: 'settings', label: 'Settings' },
] as const;

/** One device: its live data, chart and map; its uplinks; its commands; a camera trap's photos; its settings. */
export function DevicePage({ eui, tab }: { eui: string; tab: string }) {
  const device = useDevice(eui);
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const datamodel = useDatamodel().data;
  const hasPhotos = useHasPhotos(eui).data ?? false;
  // A viewer gets no Settings tab: nothing on it is theirs to change.
  const operator = useCan('operator');
  if (device.isPending) return <Loading what="Loading the device" />;
  if (device.error instanceof ApiError && device.error.status === 404) {
    return (
      <section className="card">
        <h1>Device not found</h1>
        <p>
          There is no device {spacedEui(eui)} on this account. <Link href="/devices">All devices</Link>
        </p>
      </section>
    );
  }
  if (!device.data) return <ErrorBox error={device.error} />;
  const d = device.data;
  const tabs = TABS.filter((t) => (t.id !== 'photos' || isCameraTrap(d, datamodel, hasPhotos)) && (t.id !== 'settings' || operator));
  const current = tabs.find((t) => t.id === tab) ?? tabs[0]!;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/devices">Devices</Link> / <span aria-current="page">{d.label || d.devEUI}</span>
      </nav>
      <PageHeader
        title={d.label || d.devEUI}
        subtitle={
          <>
            <span className="mono">{d.devEUI}</span> · <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} /> last seen{' '}
            {relativeTime(d.ts_activity_last_unix, now)}
            {d.folder ? ` · ${d.folder}` : ''}
          </>
        }
      />
      <DeviceAlerts eui={d.devEUI} />
      <nav aria-label="Device sections" className="tabs">
        {tabs.map((t) => (
          <Link
            key={t.id}
            href={`/devices/${eui}${t.id === 'live' ? '' : `/${t.id}`}`}
            aria-current={t.id === current.id ? 'page' : undefined}
            className={t.id === current.id ? 'active' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {current.id === 'live' ? <LiveTab device={d} /> : null}
      {current.id === 'uplinks' ? <UplinksTab eui={d.devEUI} /> : null}
      {current.id === 'commands' ? <CommandsTab eui={d.devEUI} /> : null}
      {current.id === 'photos' ? <PhotosTab device={d} /> : null}
      {current.id === 'connect' ? <ConnectTab device={d} /> : null}
      {current.id === 'settings' ? <SettingsTab device={d} /> : null}
    </>
  );
}
