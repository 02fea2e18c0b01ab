import { annotationsFrom, speciesNetTaxonomy } from './annotations';
import { imageType } from './image-bytes';

describe('annotations', () => {
  it('takes detector output', () => {
    expect(annotationsFrom([{ bbox: [0.1, 0.2, 0.3, 0.4], score: 0.9, label: 'deer', taxonomy: { id: 'x', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' } }], 'a.jpg')).toEqual([
      { id: 1, bbox: [0.1, 0.2, 0.3, 0.4], score: 0.9, label: 'deer', taxonomy: { id: 'x', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' } },
    ]);
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
    expect(annotationsFrom(body, 'img_0002.jpg')).toEqual([{ id: 1, bbox: [0.25, 0.1, 0.5, 0.6], score: 0.95, label: 'animal', taxonomy: null }]);
    expect(annotationsFrom(body, 'other.jpg')).toMatchObject({ field: 'images' });
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
    expect(annotationsFrom(body, 'IMG_0002.JPG')).toEqual([
      { id: 1, bbox: [0.2, 0.3, 0.4, 0.5], score: 0.93, label: 'bobcat', taxonomy: { id: 'a1b2', class: 'mammalia', order: 'carnivora', family: 'felidae', genus: 'lynx', species: 'rufus' } },
      { id: 2, bbox: [0.7, 0.1, 0.2, 0.3], score: 0.6, label: 'human', taxonomy: null },
    ]);
    expect(speciesNetTaxonomy('bad')).toBeNull();
  });

  it.each([
    [[{ bbox: [0.5, 0.5, 0.6, 0.1], score: 0.5, label: 'x' }], '[0].bbox'],
    [[{ bbox: [0, 0, 1], score: 0.5, label: 'x' }], '[0].bbox'],
    [[{ bbox: [0, 0, 1, 1], score: 2, label: 'x' }], '[0].score'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: '' }], '[0].label'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', colour: 'red' }], '[0].colour'],
    [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', taxonomy: { kingdom: 'animalia' } }], '[0].taxonomy.kingdom'],
    [{ something: 1 }, 'body'],
    ['text', 'body'],
  ])('refuses %j naming %s', (body, field) => {
    expect(annotationsFrom(body, 'a.jpg')).toMatchObject({ field });
  });

  it('tells JPEG and PNG by their bytes only', () => {
    expect(imageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(imageType(Buffer.from('GIF89a'))).toBeNull();
    expect(imageType(Buffer.from('<svg'))).toBeNull();
  });
});
