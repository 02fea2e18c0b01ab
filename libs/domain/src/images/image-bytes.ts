/** What a file is by its first bytes, whatever its name or declared type says. */
export function imageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}

export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_HASH_PATTERN = /^[0-9a-f]{32}$/;
