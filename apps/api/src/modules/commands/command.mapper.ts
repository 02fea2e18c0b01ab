/**
 * The payload in all three encodings at once, as docs/api.md §15 shows commands. The mapping lives in
 * libs/domain: command events (webhooks, MQTT) carry exactly what this route lists.
 */
export { toCommandWire } from '@dts/domain';
