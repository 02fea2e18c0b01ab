/** A geofence: a GeoJSON Polygon (RFC 7946: [longitude, latitude] positions, closed rings). */
export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: [number, number][][];
}

export interface FenceWire {
  uid: number;
  name: string;
  geometry: GeoJsonPolygon;
  created_unix: number;
}

export const FENCE_NAME_MAX_LENGTH = 100;
export const FENCE_MAX_POSITIONS = 10_000;

/**
 * Why the value is not a valid GeoJSON Polygon, or null when it is one: rings of at least four
 * positions, closed (first = last), longitude −180..180, latitude −90..90.
 */
export function polygonProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a GeoJSON Polygon object';
  const keys = Object.keys(value);
  const extra = keys.filter((k) => k !== 'type' && k !== 'coordinates' && k !== 'bbox');
  if (extra.length > 0) return `has unknown member ${extra[0]}`;
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (type !== 'Polygon') return 'type must be "Polygon"';
  if (!Array.isArray(coordinates) || coordinates.length === 0) return 'coordinates must be a non-empty array of linear rings';
  let total = 0;
  for (const [r, ring] of coordinates.entries()) {
    if (!Array.isArray(ring) || ring.length < 4) return `ring ${r} must have at least 4 positions`;
    total += ring.length;
    if (total > FENCE_MAX_POSITIONS) return `a fence has at most ${FENCE_MAX_POSITIONS} positions`;
    for (const [p, pos] of ring.entries()) {
      if (!Array.isArray(pos) || pos.length < 2 || pos.length > 3 || !pos.every((n) => typeof n === 'number' && Number.isFinite(n))) {
        return `position ${p} of ring ${r} must be [longitude, latitude]`;
      }
      if (pos[0] < -180 || pos[0] > 180) return `longitude of position ${p} of ring ${r} must be within -180..180`;
      if (pos[1] < -90 || pos[1] > 90) return `latitude of position ${p} of ring ${r} must be within -90..90`;
    }
    const first = ring[0] as number[];
    const last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1]) return `ring ${r} must be closed (first position = last)`;
  }
  return null;
}

/** PATCH /user/fence/{uid}: what changes (at least one member). */
export interface UpdateFenceRequest {
  name?: string;
  geometry?: GeoJsonPolygon;
}

/**
 * GET /user/fence/{uid}/devices: a device of the account inside the fence, by its last reported
 * position, or its installation position when it never reported one.
 */
export interface FenceDeviceWire {
  devEUI: string;
  label: string;
  lat: number;
  lon: number;
  position: 'reported' | 'installation';
}
