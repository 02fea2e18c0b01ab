import { ApiError, DeviceTelemetryClient } from '@dts/client';
import { i18n } from '../i18n';
import { actingOrganisation, onActingChanged } from './acting';

/**
 * The one client of the console: same origin, so the session cookie travels by itself (HttpOnly:
 * the console never sees it) and no token is kept in the browser. It acts where the console acts.
 */
export const api = new DeviceTelemetryClient({ baseUrl: window.location.origin, organisation: actingOrganisation() ?? undefined });
onActingChanged((name) => api.actIn(name ?? undefined));

/** Listeners told when any call finds the session gone (401): the shell returns to sign-in. */
const sessionLost = new Set<() => void>();

export function onSessionLost(listener: () => void): () => void {
  sessionLost.add(listener);
  return () => sessionLost.delete(listener);
}

export function reportError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) for (const listener of sessionLost) listener();
}

/** A person-readable line for a failed call: the service's message, naming the field (the console's own texts in its language). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const first = error.errors[0];
    if (!first) return i18n.t('common.errors.status', { status: error.status });
    return error.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join(' ');
  }
  if (error instanceof TypeError) return i18n.t('common.errors.unreachable');
  return error instanceof Error ? error.message : String(error);
}

/** The error of a field, from a failed call, for showing next to its input. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.errors.find((e) => e.field === field)?.message;
}
