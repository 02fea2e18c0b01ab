import { type GeoJsonPolygon, polygonProblem } from '@dts/domain';
import { i18n } from '../i18n';

/** A map position as Leaflet gives it. */
export interface LatLng {
  lat: number;
  lng: number;
}

const round = (v: number) => Math.round(v * 1e7) / 1e7;

/**
 * Rings drawn on the map (Leaflet: [lat, lng], open) as a GeoJSON Polygon ([lon, lat], each ring
 * closed), positions rounded to 1e-7° (about a centimetre).
 */
export function polygonFromRings(rings: readonly (readonly LatLng[])[]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings
      .filter((ring) => ring.length >= 3)
      .map((ring) => {
        const positions = ring.map((p): [number, number] => [round(p.lng), round(p.lat)]);
        const first = positions[0]!;
        const last = positions[positions.length - 1]!;
        return first[0] === last[0] && first[1] === last[1] ? positions : [...positions, first];
      }),
  };
}

/** A GeoJSON Polygon's rings as Leaflet draws them ([lat, lng], the closing position left out). */
export function ringsFromPolygon(polygon: GeoJsonPolygon): [number, number][][] {
  return polygon.coordinates.map((ring) => ring.slice(0, -1).map(([lon, lat]): [number, number] => [lat, lon]));
}

/** GeoJSON text typed or pasted: a Polygon, or a Feature holding one. The problem the service would name, or the polygon. */
export function parsePolygonText(text: string): { polygon: GeoJsonPolygon } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: i18n.t('fences.form.notJson') };
  }
  if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Feature') value = (value as { geometry?: unknown }).geometry;
  const problem = polygonProblem(value);
  return problem ? { problem: i18n.t('fences.form.badGeometry', { problem }) } : { polygon: value as GeoJsonPolygon };
}

/** Positions of a polygon (the closing ones not counted): "5 corners". */
export function cornerCount(polygon: GeoJsonPolygon): number {
  return polygon.coordinates[0] ? polygon.coordinates[0].length - 1 : 0;
}
