/** A parameter of a named command. */
export interface CommandParam {
  type: 'integer' | 'boolean';
  description: string;
  minimum?: number;
  maximum?: number;
}

/** A named downlink a device family understands, with its byte layout. */
export interface CommandSpec {
  name: string;
  description: string;
  port: number;
  params: Record<string, CommandParam>;
  encode(params: Record<string, number | boolean>): Uint8Array;
}

export type CommandParamsProblem = { field: string; message: string };

/** Checks the parameters against the command's schema: every one present, typed, in range, no other. */
export function checkParams(spec: CommandSpec, params: unknown): Record<string, number | boolean> | CommandParamsProblem {
  const given = params === undefined || params === null ? {} : params;
  if (typeof given !== 'object' || Array.isArray(given)) return { field: 'params', message: 'params must be an object' };
  const values = given as Record<string, unknown>;
  // Own members only: `in` would let __proto__, constructor and toString through as parameters.
  const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
  for (const key of Object.keys(values)) if (!own(spec.params, key)) return { field: `params.${key}`, message: `${spec.name} takes no parameter ${key}` };
  const out: Record<string, number | boolean> = {};
  for (const [key, p] of Object.entries(spec.params)) {
    const v = own(values, key) ? values[key] : undefined;
    if (v === undefined) return { field: `params.${key}`, message: `params.${key} is required` };
    if (p.type === 'boolean') {
      if (typeof v !== 'boolean') return { field: `params.${key}`, message: `params.${key} must be true or false` };
    } else if (typeof v !== 'number' || !Number.isInteger(v) || (p.minimum !== undefined && v < p.minimum) || (p.maximum !== undefined && v > p.maximum)) {
      return { field: `params.${key}`, message: `params.${key} must be an integer within ${p.minimum}..${p.maximum}` };
    }
    out[key] = v as number | boolean;
  }
  return out;
}
