import type { DeviceMetaWire } from '@dts/domain';
import { useLocation, useSearch } from 'wouter';
import { type GalleryFilter, readGalleryFilter, writeGalleryFilter } from '../../lib/gallery';
import { GalleryFilters, PhotoGrid } from '../camera-traps/Gallery';
import { UploadCard } from '../camera-traps/UploadCard';
import { useTranslation } from '../../i18n';

/** A camera trap's own gallery: the camera-trap page's upload, filters and grid, held to this device. */
export function PhotosTab({ device }: { device: DeviceMetaWire }) {
  const { t } = useTranslation();
  const search = useSearch();
  const [, navigate] = useLocation();
  const eui = device.devEUI;
  const filter: GalleryFilter = { ...readGalleryFilter(search), eui };
  // The device is in the path: the address keeps the other filters only.
  const setFilter = (next: GalleryFilter) => navigate(`/devices/${eui}/photos${writeGalleryFilter({ ...next, eui: '' })}`, { replace: true });
  return (
    <>
      <UploadCard cameras={[{ value: eui, label: device.label ? `${device.label} (${eui})` : eui }]} camera={eui} />
      <GalleryFilters filter={filter} setFilter={setFilter} cameras={null} />
      <PhotoGrid filter={filter} empty={t('device.photos.empty')} />
    </>
  );
}
