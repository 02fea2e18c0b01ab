import { decoderByName, implementedDecoders } from './registry';

describe('every decoder', () => {
  it('never throws, whatever the bytes and port', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const name of implementedDecoders()) {
      const decode = decoderByName(name)!;
      for (let i = 0; i < 2000; i++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256));
        const result = decode(bytes, Math.floor(random() * 5));
        expect(typeof result.valid).toBe('boolean');
        if (!result.valid) expect(typeof result.error).toBe('string');
      }
    }
  });
});
