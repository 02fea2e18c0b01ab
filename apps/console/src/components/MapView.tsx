import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useConsoleConfig } from '../hooks/devices';
import { useTranslation } from '../i18n';
import { baseMap, escapeHtml, ViewFollower } from './map-base';

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
  /** What "Show all" fits the map to, in words ("every device", "the track"). */
  content?: string;
}

/**
 * A Leaflet map of devices and tracks, drawn as vectors (no marker images to load). Tiles come
 * from the configured URL; without one, or when they do not load, the same markers and tracks are
 * drawn on the bundled base map. The view follows what is shown (a live position stays in view)
 * until the person pans or zooms (map-base.ts, ViewFollower).
 */
export function MapView({ label, markers, tracks = [], onSelect, height = '420px', content }: Props) {
  const { t } = useTranslation();
  const what = content ?? t('common.map.everyPosition');
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const follower = useRef<ViewFollower | null>(null);
  const config = useConsoleConfig().data;
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    if (!element.current || !config) return;
    const m = baseMap(element.current, config.map);
    layer.current = L.layerGroup().addTo(m);
    follower.current = new ViewFollower(m, what);
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      follower.current = null;
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
    follower.current?.show(bounds);
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
