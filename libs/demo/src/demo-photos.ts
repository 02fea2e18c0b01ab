import type { TaxonomyWire } from '@dts/domain';
import { Prng } from './prng';

const WIDTH = 1280;
const HEIGHT = 960;
const STRIP = 48;

type Light = 'dusk' | 'morning' | 'night';

/** An animal drawn in its own coordinates, with the box it fills there. */
interface Figure {
  svg: string;
  box: { x: number; y: number; width: number; height: number };
  /** Where the eye is: it shines in the infrared flash at night. */
  eye: [number, number];
}

const FOX: Figure = {
  svg: `
    <ellipse cx="45" cy="105" rx="52" ry="20" transform="rotate(-18 45 105)" fill="#b5521f"/>
    <circle cx="2" cy="122" r="13" fill="#f2efe8"/>
    <rect x="96" y="118" width="12" height="56" rx="5" fill="#3a2416"/>
    <rect x="120" y="120" width="12" height="54" rx="5" fill="#3a2416"/>
    <rect x="188" y="118" width="12" height="56" rx="5" fill="#3a2416"/>
    <rect x="210" y="116" width="12" height="58" rx="5" fill="#3a2416"/>
    <ellipse cx="150" cy="100" rx="86" ry="36" fill="#c8602a"/>
    <ellipse cx="222" cy="108" rx="22" ry="24" fill="#f2efe8"/>
    <ellipse cx="242" cy="70" rx="34" ry="27" fill="#c8602a"/>
    <polygon points="262,58 300,80 262,90" fill="#c8602a"/>
    <circle cx="298" cy="80" r="4" fill="#1a1a1a"/>
    <polygon points="224,52 233,14 248,48" fill="#a8481c"/>
    <polygon points="246,48 259,12 268,52" fill="#a8481c"/>
    <circle cx="258" cy="66" r="4" fill="#111"/>`,
  box: { x: -11, y: 12, width: 313, height: 162 },
  eye: [258, 66],
};

const ROE_DEER: Figure = {
  svg: `
    <rect x="84" y="168" width="9" height="128" rx="4" fill="#5a3a22"/>
    <rect x="104" y="170" width="9" height="126" rx="4" fill="#5a3a22"/>
    <rect x="176" y="166" width="9" height="130" rx="4" fill="#5a3a22"/>
    <rect x="196" y="164" width="9" height="132" rx="4" fill="#5a3a22"/>
    <ellipse cx="140" cy="148" rx="82" ry="40" fill="#8a5a35"/>
    <ellipse cx="214" cy="142" rx="18" ry="25" fill="#efe9df"/>
    <polygon points="72,142 100,150 76,66 50,72" fill="#8a5a35"/>
    <ellipse cx="54" cy="64" rx="28" ry="18" fill="#8a5a35"/>
    <ellipse cx="30" cy="72" rx="14" ry="10" fill="#6a4428"/>
    <circle cx="18" cy="72" r="5" fill="#111"/>
    <circle cx="50" cy="58" r="4" fill="#111"/>
    <ellipse cx="66" cy="40" rx="7" ry="16" transform="rotate(20 66 40)" fill="#7a4e2e"/>
    <line x1="56" y1="48" x2="52" y2="14" stroke="#4a3320" stroke-width="4" stroke-linecap="round"/>
    <line x1="62" y1="48" x2="70" y2="16" stroke="#4a3320" stroke-width="4" stroke-linecap="round"/>`,
  box: { x: 13, y: 12, width: 221, height: 284 },
  eye: [50, 58],
};

const BADGER: Figure = {
  svg: `
    <rect x="70" y="95" width="16" height="32" rx="6" fill="#222"/>
    <rect x="100" y="98" width="16" height="29" rx="6" fill="#222"/>
    <rect x="180" y="95" width="16" height="32" rx="6" fill="#222"/>
    <rect x="205" y="92" width="16" height="35" rx="6" fill="#222"/>
    <ellipse cx="145" cy="78" rx="98" ry="40" fill="#8a8a8a"/>
    <polygon points="58,52 0,88 58,104" fill="#f0f0f0"/>
    <polygon points="56,60 8,86 10,90 56,72" fill="#1c1c1c"/>
    <polygon points="56,86 10,92 12,95 56,98" fill="#1c1c1c"/>
    <circle cx="3" cy="89" r="5" fill="#111"/>
    <ellipse cx="54" cy="52" rx="6" ry="8" fill="#f0f0f0"/>`,
  box: { x: -2, y: 38, width: 245, height: 89 },
  eye: [30, 79],
};

const SKY: Record<Light, [string, string]> = { dusk: ['#5b4a7a', '#f3a25c'], morning: ['#8fc2e8', '#e4f0f7'], night: ['#101010', '#2a2a2a'] };
const GROUND: Record<Light, string> = { dusk: '#3d5a2a', morning: '#6f9a44', night: '#4a4a4a' };
const TREES: Record<Light, string> = { dusk: '#22331a', morning: '#3f6a2c', night: '#333333' };

/** Sky, trees and grass, the same for the same seed. */
function background(light: Light, seed: number): string {
  const rng = new Prng(seed);
  const horizon = 560;
  const trees = Array.from({ length: 7 }, () => {
    const x = rng.between(-60, WIDTH + 60);
    const r = rng.between(70, 150);
    return `<rect x="${(x - 10).toFixed(0)}" y="${(horizon - 120).toFixed(0)}" width="20" height="140" fill="${TREES[light]}"/><ellipse cx="${x.toFixed(0)}" cy="${(horizon - 120 - r * 0.6).toFixed(0)}" rx="${(r * 0.8).toFixed(0)}" ry="${r.toFixed(0)}" fill="${TREES[light]}"/>`;
  }).join('');
  const grass = Array.from({ length: 260 }, () => {
    const x = rng.between(0, WIDTH);
    const y = rng.between(horizon + 10, HEIGHT - STRIP);
    const h = 8 + ((y - horizon) / (HEIGHT - horizon)) * 30;
    return `<line x1="${x.toFixed(0)}" y1="${y.toFixed(0)}" x2="${(x + rng.between(-6, 6)).toFixed(0)}" y2="${(y - h).toFixed(0)}" stroke="${TREES[light]}" stroke-width="2" opacity="0.6"/>`;
  }).join('');
  const sun =
    light === 'morning'
      ? '<circle cx="1080" cy="150" r="60" fill="#fff6c8"/>'
      : light === 'dusk'
        ? '<circle cx="240" cy="520" r="80" fill="#ffcf7a" opacity="0.8"/>'
        : '';
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${SKY[light][0]}"/><stop offset="1" stop-color="${SKY[light][1]}"/></linearGradient></defs>
    <rect width="${WIDTH}" height="${horizon}" fill="url(#sky)"/>${sun}${trees}
    <rect y="${horizon}" width="${WIDTH}" height="${HEIGHT - horizon}" fill="${GROUND[light]}"/>${grass}`;
}

export interface DemoPhotoSpec {
  light: Light;
  figure: 'fox' | 'roe_deer' | 'badger';
  /** Left and top of the animal in the photo, pixels, and its scale. */
  at: [number, number];
  scale: number;
  /** Mirror the animal (it walks the other way). */
  flip?: boolean;
  label: string;
  score: number;
  taxonomy: { class: string; order: string; family: string; genus: string; species: string };
}

const FIGURES = { fox: FOX, roe_deer: ROE_DEER, badger: BADGER } as const;

/** One box of the service's own annotation list (POST …/annotations). */
export interface DemoAnnotation {
  bbox: [number, number, number, number];
  score: number;
  label: string;
  taxonomy: TaxonomyWire;
}

export interface DemoPhoto {
  bytes: Buffer;
  annotation: DemoAnnotation;
}

const two = (n: number) => String(n).padStart(2, '0');

/** "YYYY:MM:DD HH:MM:SS" as EXIF writes the camera's local clock. */
function exifTime(local: Date): string {
  return `${local.getUTCFullYear()}:${two(local.getUTCMonth() + 1)}:${two(local.getUTCDate())} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

/**
 * A camera-trap photo: a drawn scene with one animal, the camera's info strip, rendered to JPEG
 * with the capture time in EXIF as a camera trap writes it; the annotation's box is where the
 * animal was drawn.
 */
export async function renderDemoPhoto(spec: DemoPhotoSpec, takenAt: Date, utcOffsetHours: number, temperature: number, seed: number): Promise<DemoPhoto> {
  const figure = FIGURES[spec.figure];
  const [left, top] = spec.at;
  const s = spec.scale;
  const width = figure.box.width * s;
  const place = spec.flip
    ? `translate(${left + width + figure.box.x * s} ${top - figure.box.y * s}) scale(${-s} ${s})`
    : `translate(${left - figure.box.x * s} ${top - figure.box.y * s}) scale(${s})`;
  const eyes = spec.light === 'night' ? `<circle cx="${figure.eye[0]}" cy="${figure.eye[1]}" r="6" fill="#fff"/>` : '';
  const local = new Date(takenAt.getTime() + utcOffsetHours * 3_600_000);
  const stamp = `DT-CAM-1   ${exifTime(local).replace(/:/, '-').replace(/:/, '-')}   ${temperature.toFixed(0)}°C`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    ${background(spec.light, seed)}
    <g transform="${place}"${spec.light === 'night' ? ' opacity="0.92"' : ''}>${figure.svg}${eyes}</g>
    <rect y="${HEIGHT - STRIP}" width="${WIDTH}" height="${STRIP}" fill="#000"/>
    <text x="20" y="${HEIGHT - 15}" font-family="DejaVu Sans Mono, monospace" font-size="26" fill="#fff">${stamp}</text>
  </svg>`;
  // Loaded here, not with the module: the demo's photos are drawn once, at its start.
  const { default: sharp } = await import('sharp');
  let image = sharp(Buffer.from(svg));
  if (spec.light === 'night') image = image.grayscale();
  const offset = `${utcOffsetHours < 0 ? '-' : '+'}${two(Math.abs(utcOffsetHours))}:00`;
  const bytes = await image
    .jpeg({ quality: 82 })
    .withExif({ IFD0: { Make: 'Device Telemetry', Model: 'DT-CAM-1' }, IFD2: { DateTimeOriginal: exifTime(local), OffsetTimeOriginal: offset } })
    .toBuffer();
  const round = (n: number) => Number(n.toFixed(4));
  const bbox: [number, number, number, number] = [round(left / WIDTH), round(top / HEIGHT), round(width / WIDTH), round((figure.box.height * s) / HEIGHT)];
  return { bytes, annotation: { bbox, score: spec.score, label: spec.label, taxonomy: { id: '', ...spec.taxonomy } } };
}
