import { CAYENNE_LPP, DT_CAMERA_TRAP, DT_ENVIRONMENT, DT_TRACKER } from '@dts/domain';
import { type LatLon, VONDELPARK_LOOP } from './demo-routes';
import type { DemoPhotoSpec } from './demo-photos';

/** Amsterdam standard time: the demo's days and nights follow this clock. */
export const DEMO_UTC_OFFSET_HOURS = 1;
export const DEMO_ROUTE = VONDELPARK_LOOP;
export const DEMO_FOLDER = 'Vondelpark';
export const DEMO_FENCE_NAME = 'Vondelpark';
export const DEMO_GATEWAY = { id: 'vondelpark-gw-01', position: DEMO_ROUTE.depot };

/** Datamodel references the migrations seed (GET /datamodel/...). */
const DECODER = { lpp: CAYENNE_LPP.uid, tracker: DT_TRACKER.uid, environment: DT_ENVIRONMENT.uid, cameraTrap: DT_CAMERA_TRAP.uid } as const;
const TYPE = { tracker: 1, camera: 2, sensor: 3 } as const;
const ICON = { tracker: 2, sensor: 3, camera: 4, vehicle: 6 } as const;

export interface DemoDevice {
  eui: string;
  label: string;
  typeRef: number;
  decoderRef: number;
  iconRef: number;
  /** Where a fixed device stands. */
  installedAt: LatLon | null;
}

/** The demo account's devices. The EUIs are fixed so that the README's examples work as printed. */
export const DEMO_DEVICES = {
  patrolBike: {
    eui: '70B3D57ED0DE0001',
    label: 'Park patrol bike',
    typeRef: TYPE.tracker,
    decoderRef: DECODER.tracker,
    iconRef: ICON.vehicle,
    installedAt: null,
  },
  rangerCart: { eui: '70B3D57ED0DE0002', label: 'Ranger cart', typeRef: TYPE.tracker, decoderRef: DECODER.lpp, iconRef: ICON.tracker, installedAt: null },
  meadow: {
    eui: '70B3D57ED0DE0011',
    label: 'Meadow weather station',
    typeRef: TYPE.sensor,
    decoderRef: DECODER.environment,
    iconRef: ICON.sensor,
    installedAt: [52.3583, 4.8668],
  },
  pond: {
    eui: '70B3D57ED0DE0012',
    label: 'Pond side sensor',
    typeRef: TYPE.sensor,
    decoderRef: DECODER.lpp,
    iconRef: ICON.sensor,
    installedAt: [52.3597, 4.8736],
  },
  cameraTrap: {
    eui: '70B3D57ED0DE0021',
    label: 'Camera trap, rose garden',
    typeRef: TYPE.camera,
    decoderRef: DECODER.cameraTrap,
    iconRef: ICON.camera,
    installedAt: [52.3569, 4.8626],
  },
} as const satisfies Record<string, DemoDevice>;

const MAMMALIA = { class: 'mammalia' };

/** The camera trap's photos: when (days back from today and local hour), what and where in the frame. */
export const DEMO_PHOTOS: readonly (DemoPhotoSpec & { daysBack: number; localHour: number; temperature: number })[] = [
  {
    daysBack: 2,
    localHour: 20.7,
    temperature: 12,
    light: 'dusk',
    figure: 'fox',
    at: [700, 520],
    scale: 1.2,
    label: 'red fox',
    score: 0.94,
    taxonomy: { ...MAMMALIA, order: 'carnivora', family: 'canidae', genus: 'vulpes', species: 'vulpes' },
  },
  {
    daysBack: 1,
    localHour: 2.25,
    temperature: 7,
    light: 'night',
    figure: 'roe_deer',
    at: [820, 330],
    scale: 1.1,
    label: 'roe deer',
    score: 0.83,
    taxonomy: { ...MAMMALIA, order: 'cetartiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' },
  },
  {
    daysBack: 1,
    localHour: 6.8,
    temperature: 8,
    light: 'morning',
    figure: 'roe_deer',
    at: [380, 300],
    scale: 1.3,
    flip: true,
    label: 'roe deer',
    score: 0.91,
    taxonomy: { ...MAMMALIA, order: 'cetartiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' },
  },
  {
    daysBack: 1,
    localHour: 23.2,
    temperature: 9,
    light: 'night',
    figure: 'badger',
    at: [300, 600],
    scale: 1.4,
    label: 'European badger',
    score: 0.88,
    taxonomy: { ...MAMMALIA, order: 'carnivora', family: 'mustelidae', genus: 'meles', species: 'meles' },
  },
];
