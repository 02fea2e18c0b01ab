import type { DatamodelWire, DeviceMetaWire } from '@dts/domain';

const isCamera = (typeName: string | undefined) => typeName?.toLowerCase() === 'camera';

/**
 * Whether the device page shows a Photos tab: the device is a camera by its device type, by its
 * decoder's device type (a camera-trap family or codec) or by its icon — or photos came from it
 * whatever it is said to be.
 */
export function isCameraTrap(
  device: Pick<DeviceMetaWire, 'type_ref' | 'decoder_ref' | 'icon_ref'>,
  datamodel: Pick<DatamodelWire, 'device_types' | 'decoders' | 'icons'> | undefined,
  hasPhotos: boolean,
): boolean {
  if (hasPhotos) return true;
  if (!datamodel) return false;
  const typeName = (uid: number | null) => datamodel.device_types.find((t) => t.uid === uid)?.type_name;
  if (isCamera(typeName(device.type_ref))) return true;
  const decoder = datamodel.decoders.find((d) => d.uid === device.decoder_ref);
  if (decoder && isCamera(typeName(decoder.type_ref))) return true;
  return isCamera(datamodel.icons.find((i) => i.uid === device.icon_ref)?.name);
}

/**
 * The devices a photo can be uploaded to, as select options: the camera traps by type, decoder or
 * icon (isCameraTrap without the photos clue, which would take a request per device), and
 * `keep` — a device chosen already (the filter's, the page's) — whatever it is.
 */
export function cameraOptions(
  devices: readonly Pick<DeviceMetaWire, 'devEUI' | 'label' | 'type_ref' | 'decoder_ref' | 'icon_ref'>[],
  datamodel: Pick<DatamodelWire, 'device_types' | 'decoders' | 'icons'> | undefined,
  keep = '',
): { value: string; label: string }[] {
  return devices
    .filter((d) => d.devEUI === keep || isCameraTrap(d, datamodel, false))
    .map((d) => ({ value: d.devEUI, label: d.label ? `${d.label} (${d.devEUI})` : d.devEUI }));
}
