import type { ConsoleConfigWire } from '@dts/domain';
import type { FeatureCollection, MultiLineString } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { i18n } from '../i18n';

/** Where a map without anything to show looks: the Netherlands. */
const HOME: L.LatLngTuple = [52.36, 4.87];
/** Below the tile pane (200): loaded tiles cover the base layer, a tile that fails shows it. */
const BASE_PANE = 'dts-base';
/**
 * The deepest zoom a fit goes to: a street with tiles; with the base map alone, a region, where its
 * 1:110 million coastlines still say where the devices are (the person may zoom in further).
 */
const FIT_ZOOM = { tiles: 16, base: 9 };
/** Fired on the map's element when the base map is drawn because there are no tiles to show. */
const BASE_ONLY = 'dts-base-only';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface World {
  land: FeatureCollection;
  borders: MultiLineString;
}

let world: Promise<World> | null = null;

/**
 * Natural Earth's 1:110 million countries (world-atlas, bundled: nothing is fetched from anyone but
 * the service), loaded the first time a map needs it, in a chunk of its own (33 kB brotli) that a
 * map whose tiles load never asks for.
 */
function loadWorld(): Promise<World> {
  world ??= Promise.all([import('topojson-client'), import('world-atlas/countries-110m.json')]).then(([topojson, atlas]) => {
    const topology = atlas.default as unknown as Topology<{ land: GeometryCollection; countries: GeometryCollection }>;
    return {
      land: topojson.feature(topology, topology.objects.land),
      // Shared borders once (a mesh), not each country's outline: the coast is the land's edge.
      borders: topojson.mesh(topology, topology.objects.countries, (a, b) => a !== b),
    };
  });
  world.catch(() => {
    world = null;
  });
  return world;
}

/**
 * Draws the bundled low-resolution base map (land, coastlines, borders) under the tiles, once per
 * map: when no tile URL is configured, or as soon as a tile fails to load (offline, a tile server
 * down or refused). Marked on the element (`data-base-layer`) for whoever needs to know.
 */
function drawBaseLayer(map: L.Map, element: HTMLElement, why: 'none' | 'unavailable'): void {
  if (element.dataset.baseLayer) return;
  element.dataset.baseLayer = 'loading';
  element.classList.add('map-base');
  loadWorld().then(
    ({ land, borders }) => {
      // The map may have been removed meanwhile (a page left): then there is nothing to draw on.
      if (!map.getPane(BASE_PANE)) return;
      const style = { pane: BASE_PANE, interactive: false };
      L.geoJSON(land, { ...style, style: { color: '#8a9aa6', weight: 1, fillColor: '#f3f1e7', fillOpacity: 1 } }).addTo(map);
      L.geoJSON(borders, { ...style, style: { color: '#a7b0b8', weight: 0.8, dashArray: '3 3' } }).addTo(map);
      map.attributionControl.addAttribution(why === 'none' ? i18n.t('common.map.naturalEarth') : i18n.t('common.map.tilesUnavailable'));
      element.dataset.baseLayer = 'natural-earth';
      if (element.dataset.tiles !== 'loaded') element.dispatchEvent(new Event(BASE_ONLY));
    },
    () => {
      delete element.dataset.baseLayer;
    },
  );
}

type MapConfig = ConsoleConfigWire['map'];

/**
 * A Leaflet map on the element with the configured tiles, and the bundled base map under them for
 * when they do not load (or there are none): never a grey void, even offline.
 */
export function baseMap(element: HTMLElement, config: MapConfig): L.Map {
  const m = L.map(element, { center: HOME, zoom: 13, maxZoom: config.max_zoom, preferCanvas: false, zoomControl: true });
  m.createPane(BASE_PANE).style.zIndex = '150';
  L.control.scale({ imperial: false }).addTo(m);
  if (config.tile_url) {
    element.dataset.tiles = 'loading';
    const tiles = L.tileLayer(config.tile_url, { attribution: escapeHtml(config.attribution), maxZoom: config.max_zoom }).addTo(m);
    // Any tile that loads means there are tiles (a few failing ones show the base map through).
    tiles.on('tileload', () => {
      element.dataset.tiles = 'loaded';
    });
    tiles.once('tileerror', () => {
      if (element.dataset.tiles !== 'loaded') element.dataset.tiles = 'failed';
      drawBaseLayer(m, element, 'unavailable');
    });
  } else {
    element.dataset.tiles = 'none';
    drawBaseLayer(m, element, 'none');
  }
  return m;
}

/**
 * Keeps a map's view on what it shows: fitted when its content first comes and whenever the
 * content grows out of view (a live position leaving the view), until the person pans or zooms
 * the map; from then on their view is kept, and a "Show all" button on the map fits it again and
 * follows once more. A move is the person's when it is not one of the follower's own fits, which
 * are made without animation so that every event they cause is fired while they run.
 */
export class ViewFollower {
  private fitting = false;
  private following = true;
  private fitted = false;
  private bounds: L.LatLngBounds | null = null;
  private readonly control: HTMLElement;

  constructor(
    private readonly map: L.Map,
    what: string,
  ) {
    map.on('movestart zoomstart', () => {
      if (!this.fitting) this.release();
    });
    // A map that changes size (a phone turned, a window resized) keeps what it follows in view.
    map.on('resize', () => {
      if (!this.fitting && this.following && this.bounds?.isValid() && !map.getBounds().contains(this.bounds)) this.fit();
    });
    // Without tiles the view is fitted again, to the base map's depth, if the person has not moved it.
    map.getContainer().addEventListener(BASE_ONLY, () => {
      if (!this.following) return;
      if (this.bounds?.isValid()) {
        this.fitted = false;
        this.show(this.bounds);
      } else this.at(() => this.map.setView(this.map.getCenter(), Math.min(this.map.getZoom(), FIT_ZOOM.base), { animate: false }));
    });
    const FitControl = L.Control.extend({
      onAdd: () => {
        const bar = L.DomUtil.create('div', 'leaflet-bar map-follow');
        const button = L.DomUtil.create('button', 'map-follow-button', bar);
        button.type = 'button';
        button.textContent = i18n.t('common.map.showAll');
        button.title = i18n.t('common.map.showAllTitle', { what });
        button.setAttribute('aria-label', i18n.t('common.map.showAllLabel', { what }));
        bar.hidden = true;
        L.DomEvent.disableClickPropagation(bar);
        L.DomEvent.on(button, 'click', (event) => {
          L.DomEvent.stop(event);
          this.follow();
        });
        return bar;
      },
    });
    const control = new FitControl({ position: 'topright' }).addTo(map);
    this.control = control.getContainer()!;
    map.getContainer().dataset.follow = 'true';
  }

  /** The content's bounds now: fitted if it is the first, or if the view no longer holds it all. */
  show(bounds: L.LatLngBounds): void {
    this.bounds = bounds;
    if (!this.following || !bounds.isValid()) return;
    if (this.fitted && this.map.getBounds().contains(bounds)) return;
    this.fit();
  }

  /** Back to following: fitted to the content at once. */
  follow(): void {
    this.following = true;
    this.control.hidden = true;
    this.map.getContainer().dataset.follow = 'true';
    this.fitted = false;
    if (this.bounds) this.show(this.bounds);
  }

  private release(): void {
    if (!this.following) return;
    this.following = false;
    this.control.hidden = false;
    this.map.getContainer().dataset.follow = 'false';
  }

  private fit(): void {
    const bounds = this.bounds;
    if (!bounds) return;
    const tiles = this.map.getContainer().dataset.tiles;
    const maxZoom = tiles === 'loaded' || tiles === 'loading' ? FIT_ZOOM.tiles : FIT_ZOOM.base;
    this.at(() => {
      this.map.invalidateSize();
      this.map.fitBounds(bounds.pad(0.1), { maxZoom, animate: false });
    });
    this.fitted = true;
  }

  /** Moves the view as the follower: the events the move fires are not the person's. */
  private at(move: () => void): void {
    this.fitting = true;
    try {
      move();
    } finally {
      this.fitting = false;
    }
  }
}
