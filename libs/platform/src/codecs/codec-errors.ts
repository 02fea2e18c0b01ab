import { CODEC_LIMITS } from './codec-limits';

/** Text PostgreSQL can store: no U+0000, no lone surrogate (a codec's error message is its own). */
export const storable = (text: string) => text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

export const OUT_OF_MEMORY = `exceeded its memory limit of ${CODEC_LIMITS.memoryBytes / 1024 / 1024} MiB`;

/** A QuickJS error as a codec's problem: `interrupted` when its deadline stopped it, the memory limit when it ran out, else its name and message (cut at 300). */
export function describe(dumped: unknown, interrupted: string): string {
  return storable(describeRaw(dumped, interrupted));
}

function describeRaw(dumped: unknown, interrupted: string): string {
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const { name, message } = dumped as { name?: string; message?: string };
    if (message === 'interrupted') return interrupted;
    if (message === 'out of memory') return OUT_OF_MEMORY;
    return `${name ?? 'Error'}: ${String(message).slice(0, 300)}`;
  }
  return String(dumped).slice(0, 300);
}
