import { decoderByName, implementedDecoders } from './registry';

describe('decoder registry', () => {
  it('has raw, which keeps the payload undecoded', () => {
    expect(implementedDecoders()).toContain('raw');
    expect(decoderByName('raw')!(Uint8Array.from([1, 2, 3]), 1)).toEqual({
      decoded: {},
      valid: true,
      error: null,
      measurements: {
        temperature: null,
        humidity: null,
        battery_voltage: null,
        battery_percent: null,
        lat: null,
        lon: null,
        alt: null,
        firmware_version: null,
      },
    });
  });

  it('knows nothing by inherited names', () => {
    expect(decoderByName('toString')).toBeNull();
    expect(decoderByName('nope')).toBeNull();
  });
});
