import type { AvailableCommandWire, CreateCommandRequest } from '@dts/domain';
import { i18n } from '../i18n';

/** One input of a named command's form, from its parameter schema (GET …/command/{eui}/available). */
export interface ParamField {
  name: string;
  kind: 'integer' | 'number' | 'boolean' | 'text';
  description: string;
  minimum?: number;
  maximum?: number;
}

export function paramFields(command: AvailableCommandWire): ParamField[] {
  return Object.entries(command.params).map(([name, raw]) => {
    const schema = (raw ?? {}) as { type?: string; description?: string; minimum?: number; maximum?: number };
    const kind = schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean' ? schema.type : 'text';
    return { name, kind, description: schema.description ?? '', minimum: schema.minimum, maximum: schema.maximum };
  });
}

export type FormValues = Record<string, string | boolean>;

/**
 * The request for a named command from the form's values, or the problems by field. The service
 * checks the same again (this only spares a round trip for what the schema already says).
 */
export function namedCommandRequest(
  command: AvailableCommandWire,
  values: FormValues,
  confirmed: boolean,
): { request: CreateCommandRequest } | { problems: Record<string, string> } {
  const params: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of paramFields(command)) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      params[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') {
      problems[field.name] = i18n.t('commands.problems.required');
      continue;
    }
    if (field.kind === 'text') {
      params[field.name] = text;
      continue;
    }
    const n = Number(text);
    if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
      problems[field.name] = field.kind === 'integer' ? i18n.t('commands.problems.integer') : i18n.t('commands.problems.number');
    else if (field.minimum !== undefined && n < field.minimum) problems[field.name] = i18n.t('commands.problems.atLeast', { min: field.minimum });
    else if (field.maximum !== undefined && n > field.maximum) problems[field.name] = i18n.t('commands.problems.atMost', { max: field.maximum });
    else params[field.name] = n;
  }
  if (Object.keys(problems).length) return { problems };
  return { request: { command: command.name, params, ...(confirmed ? { confirmed: true } : {}) } };
}

export type RawEncoding = 'payload_hex' | 'payload_base64' | 'payload_ASCII';

/** A raw downlink from the form: port 1–223 and exactly one payload encoding. */
export function rawCommandRequest(
  port: string,
  encoding: RawEncoding,
  payload: string,
  confirmed: boolean,
): { request: CreateCommandRequest } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const p = Number(port);
  if (!Number.isInteger(p) || p < 1 || p > 223) problems.port = i18n.t('commands.problems.port');
  if (payload === '') problems.payload = i18n.t('commands.problems.required');
  else if (encoding === 'payload_hex' && !/^([0-9a-fA-F]{2})+$/.test(payload.replace(/\s/g, ''))) problems.payload = i18n.t('commands.problems.hex');
  if (Object.keys(problems).length) return { problems };
  const value = encoding === 'payload_hex' ? payload.replace(/\s/g, '') : payload;
  return { request: { port: p, ...(confirmed ? { confirmed: true } : {}), [encoding]: value } as CreateCommandRequest };
}
