import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { useConsoleConfig } from '../hooks/devices';

export interface MapMarker {
  id: string;
  lat: number;
  lon: number;
  label: string;
  color: string;
  /** Drawn larger, with a ring (the device's installation position). */
  ring?: boolean;
}

export interface MapTrack {
  id: string;
  points: readonly [number, number][];
  color: string;
}

interface Props {
  label: string;
  markers: readonly MapMarker[];
  tracks?: readonly MapTrack[];
  onSelect?: (id: string) => void;
  height?: string;
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Where a map without anything to show looks: the Netherlands. */
const HOME: L.LatLngTuple = [52.36, 4.87];

type MapConfig = NonNullable<ReturnType<typeof useConsoleConfig>['data']>['map'];

/** A Leaflet map on the element with the configured tiles (or a plain background and a note when there are none). */
export function baseMap(element: HTMLElement, config: MapConfig): L.Map {
  const m = L.map(element, { center: HOME, zoom: 13, maxZoom: config.max_zoom, preferCanvas: false, zoomControl: true });
  if (config.tile_url) L.tileLayer(config.tile_url, { attribution: escapeHtml(config.attribution), maxZoom: config.max_zoom }).addTo(m);
  else m.attributionControl.addAttribution('No map tiles configured');
  return m;
}

/**
 * A Leaflet map of devices and tracks, drawn as vectors (no marker images to load). Tiles come
 * from the configured URL; without one, or without a network, the same markers and tracks are
 * drawn on a plain background.
 */
export function MapView({ label, markers, tracks = [], onSelect, height = '420px' }: Props) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  /** Points the view was last fitted to: it is fitted again when the data grows well beyond them (a track loading), not on every live point. */
  const fitted = useRef(0);
  const config = useConsoleConfig().data;
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    if (!element.current || !config) return;
    const m = baseMap(element.current, config.map);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    fitted.current = 0;
    return () => {
      m.remove();
      map.current = null;
    };
  }, [config]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    const bounds = L.latLngBounds([]);
    for (const track of tracks) {
      if (track.points.length < 1) continue;
      L.polyline([...track.points] as L.LatLngExpression[], { color: track.color, weight: 3, opacity: 0.8 }).addTo(group);
      for (const p of track.points) bounds.extend(p);
    }
    for (const marker of markers) {
      const circle = L.circleMarker([marker.lat, marker.lon], {
        radius: marker.ring ? 9 : 7,
        color: marker.ring ? '#1f2937' : '#ffffff',
        weight: marker.ring ? 3 : 2,
        fillColor: marker.color,
        fillOpacity: marker.ring ? 0.35 : 0.95,
      }).addTo(group);
      circle.bindTooltip(escapeHtml(marker.label));
      circle.on('click', () => select.current?.(marker.id));
      bounds.extend([marker.lat, marker.lon]);
    }
    const count = markers.length + tracks.reduce((n, t) => n + t.points.length, 0);
    if (bounds.isValid() && count > 2 * fitted.current) {
      m.invalidateSize();
      m.fitBounds(bounds.pad(0.1), { maxZoom: 16 });
      fitted.current = count;
    }
  }, [markers, tracks, config]);

  return (
    <div
      ref={element}
      className="map"
      style={{ height }}
      role="region"
      aria-label={label}
      data-markers={markers.length}
      data-track-points={tracks.reduce((n, t) => n + t.points.length, 0)}
    />
  );
}
