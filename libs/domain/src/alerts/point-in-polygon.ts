import type { GeoJsonPolygon } from '../wire/fence';

/**
 * A fence prepared for many tests: its rings as flat coordinate arrays and its bounding box, so
 * that a point far from it costs four comparisons.
 */
export interface PreparedFence {
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
  /** [lon0, lat0, lon1, lat1, …] per ring; the first is the outer boundary, the rest are holes. */
  rings: Float64Array[];
}

export function prepareFence(polygon: GeoJsonPolygon): PreparedFence {
  const rings = polygon.coordinates.map((ring) => Float64Array.from(ring.flatMap((p) => [p[0], p[1]])));
  let minLon = Infinity;
  let maxLon = -Infinity;
  let minLat = Infinity;
  let maxLat = -Infinity;
  const outer = rings[0] ?? new Float64Array();
  for (let i = 0; i < outer.length; i += 2) {
    // Indexes below the length of a typed array: never undefined.
    minLon = Math.min(minLon, outer[i]!);
    maxLon = Math.max(maxLon, outer[i]!);
    minLat = Math.min(minLat, outer[i + 1]!);
    maxLat = Math.max(maxLat, outer[i + 1]!);
  }
  return { minLon, maxLon, minLat, maxLat, rings };
}

/** Where a point lies against one ring. */
const OUTSIDE = -1;
const EDGE = 0;
const INSIDE = 1;
type Side = typeof OUTSIDE | typeof EDGE | typeof INSIDE;

/**
 * Even-odd ray casting on one ring, in the plane of longitude and latitude (fences are small next to
 * the Earth, and RFC 7946 draws edges as straight lines in that plane), with points on an edge or
 * a vertex told apart.
 */
function ringSide(ring: Float64Array, lon: number, lat: number): Side {
  let inside = false;
  const n = ring.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    // Indexes below the ring's length: never undefined.
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    const cross = (xj - xi) * (lat - yi) - (yj - yi) * (lon - xi);
    if (cross === 0 && lon >= Math.min(xi, xj) && lon <= Math.max(xi, xj) && lat >= Math.min(yi, yj) && lat <= Math.max(yi, yj)) return EDGE;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside ? INSIDE : OUTSIDE;
}

/**
 * Whether (lon, lat) is inside the polygon: within its outer ring and strictly inside none of its
 * holes. Every boundary counts as inside, so a tracker parked on a fence's edge does not flap.
 */
export function pointInFence(fence: PreparedFence, lon: number, lat: number): boolean {
  if (lon < fence.minLon || lon > fence.maxLon || lat < fence.minLat || lat > fence.maxLat) return false;
  const [outer, ...holes] = fence.rings;
  if (!outer || ringSide(outer, lon, lat) === OUTSIDE) return false;
  for (const hole of holes) if (ringSide(hole, lon, lat) === INSIDE) return false;
  return true;
}

export const pointInPolygon = (polygon: GeoJsonPolygon, lon: number, lat: number) => pointInFence(prepareFence(polygon), lon, lat);
