import type { FenceDeviceWire, FenceWire, GeoJsonPolygon } from '@dts/domain';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useConsoleConfig } from '../hooks/devices';
import { useTranslation } from '../i18n';
import { type LatLng, polygonFromRings, ringsFromPolygon } from '../lib/fence-geometry';
import { baseMap, escapeHtml, ViewFollower } from './map-base';

export type FenceMapMode = { kind: 'view' } | { kind: 'draw' } | { kind: 'edit'; uid: number };

interface Props {
  label: string;
  fences: readonly FenceWire[];
  selected: number | null;
  /** The shape being edited, when it differs from the stored one (a draft). */
  draft: GeoJsonPolygon | null;
  devices: readonly FenceDeviceWire[];
  mode: FenceMapMode;
  onSelect: (uid: number) => void;
  /** A polygon finished in draw mode. */
  onDrawn: (polygon: GeoJsonPolygon) => void;
  /** The edited fence's new shape, after each change. */
  onEdited: (polygon: GeoJsonPolygon) => void;
}

const SELECTED = { color: '#0f5c4d', weight: 3, fillOpacity: 0.25 };
const OTHER = { color: '#4b5563', weight: 2, fillOpacity: 0.08, dashArray: '4 4' };

/** Leaflet's rings of a polygon layer (one ring or several), as plain positions. */
function ringsOf(layer: L.Polygon): LatLng[][] {
  const latlngs = layer.getLatLngs() as L.LatLng[] | L.LatLng[][];
  const rings = Array.isArray(latlngs[0]) ? (latlngs as L.LatLng[][]) : [latlngs as L.LatLng[]];
  return rings.map((ring) => ring.map((p) => ({ lat: p.lat, lng: p.lng })));
}

/**
 * The account's fences on a Leaflet map: a click selects one; in draw mode a polygon is drawn
 * point by point (Leaflet-Geoman; the first point again, or Finish, ends it); in edit mode the
 * selected fence's corners are dragged, added (the midpoints) or removed (right click). The page
 * holds the buttons and a GeoJSON text of the shape, the keyboard's way to the same.
 */
export function FenceMap({ label, fences, selected, draft, devices, mode, onSelect, onDrawn, onEdited }: Props) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const fenceLayer = useRef<L.LayerGroup | null>(null);
  const deviceLayer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef<string>('');
  const follower = useRef<ViewFollower | null>(null);
  const config = useConsoleConfig().data;
  const handlers = useRef({ onSelect, onDrawn, onEdited });
  handlers.current = { onSelect, onDrawn, onEdited };

  useEffect(() => {
    if (!element.current || !config) return;
    const m = baseMap(element.current, config.map);
    fenceLayer.current = L.layerGroup().addTo(m);
    deviceLayer.current = L.layerGroup().addTo(m);
    follower.current = new ViewFollower(m, t('common.map.everyFence'));
    fitted.current = '';
    m.pm.setGlobalOptions({ allowSelfIntersection: false, snappable: false });
    m.on('pm:create', (e) => {
      const layer = e.layer as L.Polygon;
      const polygon = polygonFromRings(ringsOf(layer));
      m.removeLayer(layer);
      handlers.current.onDrawn(polygon);
    });
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      follower.current = null;
    };
  }, [config]);

  // Fences (and the edited one, editable), redrawn when anything about them changes.
  useEffect(() => {
    const m = map.current;
    const group = fenceLayer.current;
    if (!m || !group) return;
    group.clearLayers();
    const bounds = L.latLngBounds([]);
    for (const fence of fences) {
      const editing = mode.kind === 'edit' && mode.uid === fence.uid;
      const shape = editing && draft ? draft : fence.geometry;
      const layer = L.polygon(ringsFromPolygon(shape), fence.uid === selected ? SELECTED : OTHER).addTo(group);
      layer.bindTooltip(escapeHtml(fence.name), { sticky: true });
      layer.on('click', () => handlers.current.onSelect(fence.uid));
      for (const ring of ringsFromPolygon(shape)) for (const p of ring) bounds.extend(p);
      if (editing) {
        layer.pm.enable({ allowSelfIntersection: false });
        layer.on('pm:edit', () => handlers.current.onEdited(polygonFromRings(ringsOf(layer))));
      }
    }
    // Shown again only when the set of fences changes, not on every edit (a corner dragged out
    // of view must not move the map under the pointer); the person's own view is kept.
    const signature = fences.map((f) => f.uid).join(',');
    if (bounds.isValid() && signature !== fitted.current) {
      follower.current?.show(bounds);
      fitted.current = signature;
    }
  }, [fences, selected, mode, draft, config]);

  useEffect(() => {
    const group = deviceLayer.current;
    if (!group) return;
    group.clearLayers();
    for (const d of devices) {
      L.circleMarker([d.lat, d.lon], { radius: 6, color: '#ffffff', weight: 2, fillColor: '#1e3a8a', fillOpacity: 0.95 })
        .bindTooltip(escapeHtml(d.label || d.devEUI))
        .addTo(group);
    }
  }, [devices, config]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (mode.kind === 'draw') m.pm.enableDraw('Polygon', { finishOn: null, allowSelfIntersection: false });
    else m.pm.disableDraw();
  }, [mode, config]);

  return (
    <div
      ref={element}
      className="map fence-map"
      style={{ height: '460px' }}
      role="region"
      aria-label={label}
      data-fences={fences.length}
      data-mode={mode.kind}
      data-devices={devices.length}
    />
  );
}
