import { isOnline } from '@dts/domain';
import { ApiError } from '@dts/client';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { ErrorBox, Loading, OnlineBadge, PageHeader } from '../../components/ui';
import { useDatamodel } from '../../hooks/datamodel';
import { useConsoleConfig, useDevice } from '../../hooks/devices';
import { useHasPhotos } from '../../hooks/images';
import { useNow } from '../../hooks/now';
import { useTranslation } from '../../i18n';
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

/** The tabs in order, each named by `device.page.tabs.<id>`. */
const TABS = [{ id: 'live' }, { id: 'uplinks' }, { id: 'commands' }, { id: 'photos' }, { id: 'connect' }, { id: 'settings' }] as const;

/** One device: its live data, chart and map; its uplinks; its commands; a camera trap's photos; its settings. */
export function DevicePage({ eui, tab }: { eui: string; tab: string }) {
  const { t } = useTranslation();
  const device = useDevice(eui);
  const threshold = useConsoleConfig().data?.online_threshold_s ?? 3_600;
  const now = useNow();
  const datamodel = useDatamodel().data;
  const hasPhotos = useHasPhotos(eui).data ?? false;
  // A viewer gets no Settings tab: nothing on it is theirs to change.
  const operator = useCan('operator');
  if (device.isPending) return <Loading what={t('device.page.loading')} />;
  if (device.error instanceof ApiError && device.error.status === 404) {
    return (
      <section className="card">
        <h1>{t('device.page.notFound')}</h1>
        <p>
          <Trans t={t} i18nKey="device.page.noSuchDevice" values={{ eui: spacedEui(eui) }} components={{ devices: <Link href="/devices" /> }} />
        </p>
      </section>
    );
  }
  if (!device.data) return <ErrorBox error={device.error} />;
  const d = device.data;
  const tabs = TABS.filter((x) => (x.id !== 'photos' || isCameraTrap(d, datamodel, hasPhotos)) && (x.id !== 'settings' || operator));
  const current = tabs.find((x) => x.id === tab) ?? tabs[0]!;
  return (
    <>
      <nav aria-label={t('device.page.breadcrumb')} className="breadcrumb">
        <Link href="/devices">{t('devices.title')}</Link> / <span aria-current="page">{d.label || d.devEUI}</span>
      </nav>
      <PageHeader
        title={d.label || d.devEUI}
        subtitle={
          <>
            <span className="mono">{d.devEUI}</span> · <OnlineBadge online={isOnline(d.ts_activity_last_unix, threshold, now)} />{' '}
            {t('device.page.lastSeen', { when: relativeTime(d.ts_activity_last_unix, now) })}
            {d.folder ? ` · ${d.folder}` : ''}
          </>
        }
      />
      <DeviceAlerts eui={d.devEUI} />
      <nav aria-label={t('device.page.sections')} className="tabs">
        {tabs.map((x) => (
          <Link
            key={x.id}
            href={`/devices/${eui}${x.id === 'live' ? '' : `/${x.id}`}`}
            aria-current={x.id === current.id ? 'page' : undefined}
            className={x.id === current.id ? 'active' : undefined}
          >
            {t(`device.page.tabs.${x.id}`)}
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
