/**
 * Which of an account's devices an integration or an alert rule is about: all of them (null), or
 * those that pass every criterion given — one of the EUIs, in the folder, carrying one of the tags.
 * A device's `tags` is free JSON: a tag is one of its array's strings or one of its object's keys.
 * Here, not in integrations/ or alerts/, because both use it and neither imports the other.
 */
export interface DeviceFilterWire {
  euis: string[] | null;
  folder: string | null;
  tags: string[] | null;
}

export const DEVICE_FILTER_MAX_EUIS = 1_000;
export const DEVICE_FILTER_MAX_TAGS = 50;

/** What a device offers to a filter. */
export interface FilteredDevice {
  eui: string;
  folder: string | null;
  tags: unknown;
}

function hasTag(tags: unknown, tag: string): boolean {
  if (Array.isArray(tags)) return tags.includes(tag);
  return typeof tags === 'object' && tags !== null && Object.prototype.hasOwnProperty.call(tags, tag);
}

export function deviceMatches(filter: DeviceFilterWire | null, device: FilteredDevice): boolean {
  if (!filter) return true;
  if (filter.euis && filter.euis.length > 0 && !filter.euis.includes(device.eui)) return false;
  if (filter.folder !== null && filter.folder !== device.folder) return false;
  if (filter.tags && filter.tags.length > 0 && !filter.tags.some((t) => hasTag(device.tags, t))) return false;
  return true;
}

/** A filter that restricts nothing is stored as null. */
export function normalizeDeviceFilter(filter: Partial<DeviceFilterWire> | null | undefined): DeviceFilterWire | null {
  if (!filter) return null;
  const euis = filter.euis && filter.euis.length > 0 ? [...new Set(filter.euis)] : null;
  const tags = filter.tags && filter.tags.length > 0 ? [...new Set(filter.tags)] : null;
  const folder = filter.folder ?? null;
  return euis === null && tags === null && folder === null ? null : { euis, folder, tags };
}
