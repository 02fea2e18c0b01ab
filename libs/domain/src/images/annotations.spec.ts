import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { annotationsFrom, speciesNetTaxonomy, type ImageAnnotations } from './annotations';
import { imageType } from './image-bytes';

/** Real detector outputs kept in test-data/camera-traps (sources in its README). */
const CAMERA_TRAPS = join(__dirname, '../../../../test-data/camera-traps');
const real = (path: string): unknown => JSON.parse(readFileSync(join(CAMERA_TRAPS, path), 'utf8'));
const boxes = (annotations: ImageAnnotations['annotations']) => ({ annotations, prediction: null });

describe('annotations', () => {
  it('takes detector output', () => {
    expect(
      annotationsFrom(
        [
          {
            bbox: [0.1, 0.2, 0.3, 0.4],
            score: 0.9,
            label: 'deer',
            taxonomy: { id: 'x', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' },
          },
        ],
        'a.jpg',
      ),
    ).toEqual(
      boxes([
        {
          id: 1,
          bbox: [0.1, 0.2, 0.3, 0.4],
          score: 0.9,
          label: 'deer',
          taxonomy: { id: 'x', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' },
          source: null,
        },
      ]),
    );
  });

  it('keeps who made each box (source), in the list and the object form', () => {
    const drawn = { bbox: [0.1, 0.2, 0.3, 0.4], score: 1, label: 'roe deer', source: 'person' };
    const detected = { bbox: [0.5, 0.5, 0.2, 0.2], score: 0.8, label: 'animal', source: 'MegaDetector (md_v5a.0.0.pt)' };
    const expected: ImageAnnotations['annotations'] = [
      { id: 1, bbox: [0.1, 0.2, 0.3, 0.4], score: 1, label: 'roe deer', taxonomy: null, source: 'person' },
      { id: 2, bbox: [0.5, 0.5, 0.2, 0.2], score: 0.8, label: 'animal', taxonomy: null, source: 'MegaDetector (md_v5a.0.0.pt)' },
    ];
    expect(annotationsFrom([drawn, detected], 'a.jpg')).toEqual(boxes(expected));
    expect(annotationsFrom({ annotations: [drawn, detected], prediction: { label: 'roe deer', score: 1, source: 'person' } }, 'a.jpg')).toEqual({
      annotations: expected,
      prediction: { label: 'roe deer', score: 1, taxonomy: null, source: 'person' },
    });
  });

  it('converts MegaDetector batch output, picking the entry of the file', () => {
    const body = {
      info: { detector: 'md_v5a.0.0.pt' },
      detection_categories: { '1': 'animal', '2': 'person', '3': 'vehicle' },
      images: [
        { file: 'cam1/IMG_0001.JPG', detections: [{ category: '2', conf: 0.7, bbox: [0, 0, 0.5, 0.5] }] },
        { file: 'cam1/IMG_0002.JPG', detections: [{ category: '1', conf: 0.95, bbox: [0.25, 0.1, 0.5, 0.6] }] },
      ],
    };
    expect(annotationsFrom(body, 'img_0002.jpg')).toEqual(
      boxes([{ id: 1, bbox: [0.25, 0.1, 0.5, 0.6], score: 0.95, label: 'animal', taxonomy: null, source: 'MegaDetector (md_v5a.0.0.pt)' }]),
    );
    expect(annotationsFrom(body, 'other.jpg')).toEqual({ field: 'images', message: "no entry of images names the image's file (other.jpg)" });
    // Without `info.detector`: the detector's name alone.
    const { info: _info, ...unnamed } = body;
    expect((annotationsFrom(unnamed, 'img_0002.jpg') as ImageAnnotations).annotations[0]!.source).toBe('MegaDetector');
  });

  it('converts SpeciesNet predictions into labelled, classified boxes', () => {
    const body = {
      predictions: [
        {
          filepath: '/data/IMG_0002.JPG',
          detections: [
            { category: '1', label: 'animal', conf: 0.93, bbox: [0.2, 0.3, 0.4, 0.5] },
            { category: '2', label: 'human', conf: 0.6, bbox: [0.7, 0.1, 0.2, 0.3] },
          ],
          prediction: 'a1b2;mammalia;carnivora;felidae;lynx;rufus;bobcat',
          prediction_score: 0.88,
          prediction_source: 'classifier',
        },
      ],
    };
    const bobcat = { id: 'a1b2', class: 'mammalia', order: 'carnivora', family: 'felidae', genus: 'lynx', species: 'rufus' };
    expect(annotationsFrom(body, 'IMG_0002.JPG')).toEqual({
      annotations: [
        { id: 1, bbox: [0.2, 0.3, 0.4, 0.5], score: 0.93, label: 'bobcat', taxonomy: bobcat, source: 'SpeciesNet' },
        { id: 2, bbox: [0.7, 0.1, 0.2, 0.3], score: 0.6, label: 'human', taxonomy: null, source: 'SpeciesNet' },
      ],
      prediction: { label: 'bobcat', score: 0.88, taxonomy: bobcat, source: 'classifier' },
    });
    expect(speciesNetTaxonomy('bad')).toBeNull();
  });

  it.each([
    [[{ bbox: [0.5, 0.5, 0.6, 0.1], score: 0.5, label: 'x' }], '[0].bbox'],
    [[{ bbox: [0, 0, 1], score: 0.5, label: 'x' }], '[0].bbox'],
    [[{ bbox: [0, 0, 1, 1], score: 2, label: 'x' }], '[0].score'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: '' }], '[0].label'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', colour: 'red' }], '[0].colour'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', taxonomy: { kingdom: 'animalia' } }], '[0].taxonomy.kingdom'],
    // Past the rounding tolerance: nonsense, named by its index.
    [
      [
        { bbox: [0, 0, 1, 1], score: 0.5, label: 'x' },
        { bbox: [0.5, 0.2, 0.502, 0.1], score: 0.5, label: 'x' },
      ],
      '[1].bbox',
    ],
    [[{ bbox: [-0.01, 0, 0.5, 0.5], score: 0.5, label: 'x' }], '[0].bbox'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', source: '' }], '[0].source'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', source: 7 }], '[0].source'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', source: 'p'.repeat(101) }], '[0].source'],
    // The object form names the member the list is in.
    [{ annotations: [{ bbox: [0, 0, 1, 1], score: 0.5, label: '' }] }, 'annotations[0].label'],
    [{ annotations: [], prediction: { label: 'x', score: 1.5 } }, 'prediction.score'],
    [{ annotations: [], prediction: { label: 'x', score: 0.5, colour: 'red' } }, 'prediction.colour'],
    [{ annotations: 'none' }, 'annotations'],
    [{ annotations: [], extra: 1 }, 'extra'],
    [{ something: 1 }, 'body'],
    ['text', 'body'],
  ])('refuses %j naming %s', (body, field) => {
    expect(annotationsFrom(body, 'a.jpg')).toMatchObject({ field });
  });

  it('tolerates coordinates rounded past an edge (MegaDetector keeps 4 decimals), clamping them onto it', () => {
    const body = {
      images: [
        {
          file: 'a.jpg',
          detections: [
            { category: '1', conf: 0.9, bbox: [0.9419, 0.4674, 0.0582, 0.1673] },
            { category: '1', conf: 0.8, bbox: [-0.0001, 0.8, 0.2, 0.2001] },
          ],
        },
      ],
    };
    const found = annotationsFrom(body, 'a.jpg') as ImageAnnotations;
    expect(found.annotations.map((a) => a.bbox)).toEqual([
      [0.9419, 0.4674, expect.closeTo(0.0581, 10), 0.1673],
      [0, 0.8, 0.2, expect.closeTo(0.2, 10)],
    ]);
    for (const { bbox } of found.annotations) expect(bbox[0] + bbox[2] <= 1 && bbox[1] + bbox[3] <= 1).toBe(true);
  });

  it('takes our own object form with an image-level prediction', () => {
    expect(annotationsFrom({ annotations: [], prediction: { label: 'blank', score: 0.97 } }, 'a.jpg')).toEqual({
      annotations: [],
      prediction: { label: 'blank', score: 0.97, taxonomy: null, source: null },
    });
  });

  describe('real detector outputs (test-data/camera-traps)', () => {
    it('MegaDetector format 1.6 example: classifier labels and taxonomy on the boxes it classified, the category elsewhere', () => {
      const found = annotationsFrom(real('megadetector/output-format-example.json'), 'image_with_animal.jpg') as ImageAnnotations;
      expect(found.prediction).toBeNull();
      expect(found.annotations).toEqual([
        {
          id: 1,
          bbox: [0, 0.2762, 0.1539, 0.2825],
          score: 0.926,
          label: 'bear',
          taxonomy: { id: '', class: 'mammalia', order: 'carnivora', family: 'ursidae', genus: '', species: 'ursusamericanus' },
          source: 'MegaDetector (MDV5A)',
        },
        { id: 2, bbox: [0.0451, 0.1849, 0.3642, 0.4636], score: 0.061, label: 'animal', taxonomy: null, source: 'MegaDetector (MDV5A)' },
      ]);
      expect(annotationsFrom(real('megadetector/output-format-example.json'), 'empty_image.jpg')).toEqual(boxes([]));
      expect(annotationsFrom(real('megadetector/output-format-example.json'), 'corrupted_image_0.jpg')).toMatchObject({
        field: 'images',
        message: expect.stringContaining('failed'),
      });
    });

    it('a real MegaDetector v5 run on 31 images: every image converts, boxes within the image', () => {
      const output = real('megadetector/expected_output_DRAFT.json') as { images: { file: string; detections: unknown[] }[] };
      expect(output.images).toHaveLength(31);
      let total = 0;
      for (const image of output.images) {
        const found = annotationsFrom(output, image.file.split('/').pop()!) as ImageAnnotations;
        expect(found.annotations).toHaveLength(image.detections.length);
        for (const { bbox } of found.annotations) expect(bbox[0] + bbox[2] <= 1 && bbox[1] + bbox[3] <= 1).toBe(true);
        total += found.annotations.length;
      }
      expect(total).toBe(79);
    });

    it('MegaDetector output with a box rounded onto the right edge (x + w = 1.0) converts', () => {
      const found = annotationsFrom(real('megadetector/speciesnet-notebook-detections.md-format.json'), 'african_elephants.jpg') as ImageAnnotations;
      expect(found.annotations).toHaveLength(15);
      expect(found.annotations.some((a) => Math.abs(a.bbox[0] + a.bbox[2] - 1) < 1e-9)).toBe(true);
    });

    it('SpeciesNet classifier-only output (no boxes) becomes an image-level prediction', () => {
      expect(annotationsFrom(real('speciesnet/classifier-only.predictions.json'), 'african_elephants.jpg')).toEqual({
        annotations: [],
        prediction: {
          label: 'african elephant',
          score: expect.closeTo(0.3487, 4),
          taxonomy: {
            id: '55631055-3e0e-4b7a-9612-dedebe9f78b0',
            class: 'mammalia',
            order: 'proboscidea',
            family: 'elephantidae',
            genus: 'loxodonta',
            species: 'africana',
          },
          source: 'classifier',
        },
      });
    });

    it('SpeciesNet ensemble: the species on the animal boxes and as the image-level prediction', () => {
      const found = annotationsFrom(real('speciesnet/ensemble.predictions.json'), 'ocelot.jpg') as ImageAnnotations;
      expect(found.prediction).toMatchObject({ label: 'ocelot', taxonomy: { genus: 'leopardus', species: 'pardalis' }, source: 'classifier' });
      expect(found.annotations).toHaveLength(1);
      expect(found.annotations[0]).toMatchObject({ label: 'ocelot', taxonomy: { species: 'pardalis' }, source: 'SpeciesNet 4.0.0a' });
    });

    it('SpeciesNet geofenced roll-up to a class keeps what it knows: "mammal", class mammalia', () => {
      const found = annotationsFrom(real('speciesnet/ensemble-geofenced-ROU.predictions.json'), 'african_elephants.jpg') as ImageAnnotations;
      expect(found.prediction).toMatchObject({
        label: 'mammal',
        taxonomy: { class: 'mammalia', order: '', species: '' },
        source: 'classifier+geofence+rollup_to_class',
      });
    });

    it('SpeciesNet detector-only output: boxes, no prediction', () => {
      const found = annotationsFrom(real('speciesnet/detector-only.predictions.json'), 'african_elephants.jpg') as ImageAnnotations;
      expect(found.prediction).toBeNull();
      expect(found.annotations).toHaveLength(15);
      expect(new Set(found.annotations.map((a) => a.label))).toEqual(new Set(['animal']));
    });
  });

  it('tells JPEG and PNG by their bytes only', () => {
    expect(imageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(imageType(Buffer.from('GIF89a'))).toBeNull();
    expect(imageType(Buffer.from('<svg'))).toBeNull();
  });
});
