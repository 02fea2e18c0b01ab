import type { DashboardWidget, DeviceMetaWire } from '@dts/domain';
import { useDatamodel } from '../../hooks/datamodel';
import { i18n } from '../../i18n';

/** Label and unit of a member from the data types (a payload_decoded number: its own name, no unit). */
export function useDescribe() {
  const types = useDatamodel().data?.data_types;
  return (member: string) => {
    const type = types?.find((t) => t.alias === member);
    return { label: type?.label ?? member, unit: type?.unit ?? '' };
  };
}

/** A device's label, or its EUI while the list loads or when the device is gone. */
export const deviceName = (devices: ReadonlyMap<string, DeviceMetaWire>, eui: string) => devices.get(eui)?.label || eui;

/** What a widget shows when it has no title of its own. */
export function defaultTitle(widget: DashboardWidget, devices: ReadonlyMap<string, DeviceMetaWire>, describe: ReturnType<typeof useDescribe>): string {
  switch (widget.kind) {
    case 'chart':
      return i18n.t('dashboards.defaultTitle.chart', {
        members: widget.options.members.map((m) => describe(m).label).join(', '),
        period: widget.options.period,
      });
    case 'latest':
    case 'gauge':
      return i18n.t('dashboards.defaultTitle.ofDevice', { label: describe(widget.options.member).label, device: deviceName(devices, widget.options.device) });
    case 'map':
      return widget.options.devices.length === 1
        ? i18n.t('dashboards.defaultTitle.track', { device: deviceName(devices, widget.options.devices[0]!) })
        : i18n.t('dashboards.defaultTitle.tracks');
    case 'alerts':
      return widget.options.state === 'active' ? i18n.t('dashboards.defaultTitle.activeAlerts') : i18n.t('dashboards.defaultTitle.latestAlerts');
  }
}
