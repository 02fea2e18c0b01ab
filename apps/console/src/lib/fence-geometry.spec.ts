import { cornerCount, parsePolygonText, polygonFromRings, ringsFromPolygon } from './fence-geometry';

describe('fence geometry between the map and GeoJSON', () => {
  const drawn = [
    { lat: 52.1, lng: 5.1 },
    { lat: 52.1, lng: 5.2 },
    { lat: 52.2, lng: 5.20000001234 },
  ];

  it('closes each ring, swaps to [lon, lat] and rounds to 1e-7', () => {
    const polygon = polygonFromRings([drawn, [{ lat: 1, lng: 1 }]]);
    expect(polygon).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [5.1, 52.1],
          [5.2, 52.1],
          [5.2, 52.2],
          [5.1, 52.1],
        ],
      ],
    });
    expect(ringsFromPolygon(polygon)).toEqual([
      [
        [52.1, 5.1],
        [52.1, 5.2],
        [52.2, 5.2],
      ],
    ]);
    expect(cornerCount(polygon)).toBe(3);
  });

  it('reads pasted GeoJSON, a Feature included, and names what is wrong', () => {
    const polygon = polygonFromRings([drawn]);
    expect(parsePolygonText(JSON.stringify(polygon))).toEqual({ polygon });
    expect(parsePolygonText(JSON.stringify({ type: 'Feature', properties: {}, geometry: polygon }))).toEqual({ polygon });
    expect(parsePolygonText('{')).toEqual({ problem: 'This is not JSON.' });
    expect(parsePolygonText('{"type":"Point","coordinates":[1,2]}')).toEqual({ problem: 'The geometry type must be "Polygon".' });
  });
});
