/**
 * Schema-driven request mutations for the route fuzz (apps/api/test/fuzz-routes.e2e-spec.ts):
 * from an operation of the OpenAPI document and a valid request for it, the requests that break
 * one thing each: a path parameter, a query member, a body member, the body as a whole.
 */

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  format?: string;
  nullable?: boolean;
};

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A request as the fuzz sends it; `form` is a multipart body (fields and files). */
export interface FuzzRequest {
  method: string;
  /** The path template with its parameters filled in, already URL-encoded. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  json?: unknown;
  /** A body sent as is, with this content type. */
  raw?: { body: string | Buffer; contentType: string };
  form?: { fields: [string, string][]; files: { field: string; name: string; bytes: Buffer; type: string }[] };
}

export interface FuzzCase {
  /** What this case breaks, for the failure message. */
  what: string;
  category: 'path' | 'query' | 'body' | 'whole-body' | 'multipart' | 'headers';
  request: FuzzRequest;
}

/** A small seeded generator, so that a failing run can be replayed with FUZZ_SEED. */
export function prng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  return {
    next,
    pick: <T>(list: readonly T[]): T => {
      const item = list[Math.floor(next() * list.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    shuffle: <T>(list: readonly T[]): T[] => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}

export function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => resolve(doc, s));
    return { type: 'object', properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})), required: parts.flatMap((p) => p.required ?? []) };
  }
  return schema;
}

const enc = encodeURIComponent;

/** Path parameter values that are not what the parameter names, in the ways clients get them wrong. */
export const ODD_PATH_VALUES: Record<'eui' | 'hash' | 'uid', string[]> = {
  eui: [
    '0011223344556',
    '00112233445566778899',
    'GGGGGGGGGGGGGGGG',
    enc('ÄÖÜ0112233445566é'),
    '%00',
    `0011223344556677${'%00'}`,
    '..%2F..%2Fetc%2Fpasswd',
    '..%5C..',
    '1e3',
    '0x10',
    '-1',
    '0',
    '%20',
    enc('00:11:22:33:44:55:66:7'),
    '00-11-22-33-44-55-66-77-88',
    'null',
    'x'.repeat(5000),
    enc('\u202e0011223344556677'),
    enc("0011223344556677' OR '1'='1"),
    '%FF%FE',
    enc('０１２３４５６７８９ＡＢＣＤＥＦ'),
  ],
  hash: [
    'abc',
    'z'.repeat(32),
    '0'.repeat(31),
    '0'.repeat(33),
    enc('é'.repeat(32)),
    '%00',
    `${'0'.repeat(32)}%00`,
    '..%2F..%2Fetc%2Fpasswd',
    '1e3',
    '0x10',
    '-1',
    'x'.repeat(5000),
    enc('0'.repeat(16) + "' OR '1'='1"),
    '%FF%FE',
  ],
  uid: [
    '-1',
    '0',
    '1.5',
    '1e3',
    '0x10',
    '99999999999999999999',
    '2147483648',
    'NaN',
    'Infinity',
    'abc',
    '%00',
    '%201',
    '1%00',
    enc('１'),
    '..%2F1',
    '9'.repeat(5000),
  ],
};

export function pathParamKind(name: string): 'eui' | 'hash' | 'uid' {
  if (name === 'eui') return 'eui';
  if (name.includes('hash')) return 'hash';
  return 'uid';
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return value;
  });
}

const HUGE = 'x'.repeat(100_000);

/** Values of the wrong type for a member of this schema, and ones too large for it. */
export function wrongValues(schema: Schema): { what: string; value: unknown }[] {
  const type = schema.type ?? (schema.oneOf ? 'oneOf' : 'any');
  const out: { what: string; value: unknown }[] = [];
  if (type === 'string') {
    out.push({ what: 'a number', value: 12345 }, { what: 'an object', value: { a: 1 } }, { what: 'an array', value: ['x'] }, { what: 'true', value: true });
    out.push({ what: 'oversized', value: schema.maxLength !== undefined ? 'x'.repeat(schema.maxLength + 1) : HUGE });
    out.push({ what: 'text with a NUL character', value: 'a\u0000b' });
    if (schema.enum) out.push({ what: 'not in the enum', value: 'zz-not-an-option' });
    if (schema.minLength) out.push({ what: 'too short', value: '' });
  } else if (type === 'integer' || type === 'number') {
    out.push(
      { what: 'text', value: 'abc' },
      { what: 'NaN text', value: 'NaN' },
      { what: 'an object', value: { n: 1 } },
      { what: 'an array', value: [1] },
      { what: 'true', value: true },
    );
    out.push({ what: 'huge', value: 1e300 }, { what: 'beyond safe integers', value: 2 ** 60 });
    if (type === 'integer') out.push({ what: 'a fraction', value: 1.5 });
    if (schema.minimum !== undefined) out.push({ what: 'below the minimum', value: schema.minimum - 1 });
    if (schema.maximum !== undefined) out.push({ what: 'above the maximum', value: schema.maximum + 1 });
  } else if (type === 'boolean') {
    out.push({ what: 'text', value: 'yes' }, { what: 'a number', value: 7 }, { what: 'an object', value: {} });
  } else if (type === 'object') {
    out.push(
      { what: 'text', value: 'x' },
      { what: 'a number', value: 1 },
      { what: 'an array', value: [] },
      { what: 'a huge object', value: Object.fromEntries(Array.from({ length: 5000 }, (_v, i) => [`k${i}`, HUGE.slice(0, 20)])) },
    );
  } else if (type === 'array') {
    out.push({ what: 'an object', value: {} }, { what: 'text', value: 'x' }, { what: 'a huge array', value: Array.from({ length: 20_000 }, () => 1) });
  } else {
    out.push(
      { what: 'an array of objects', value: [{ a: [{ b: HUGE.slice(0, 50) }] }] },
      { what: 'a deep object', value: JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500)) as unknown },
    );
  }
  return out;
}

/** Query values no parameter should take as given. */
export function oddQueryValues(schema: Schema): string[] {
  const type = schema.type ?? 'string';
  if (type === 'integer' || type === 'number')
    return ['abc', '1.5', '-1', '1e3', '0x10', '99999999999999999999', '999999999999999', '', 'NaN', 'Infinity', '%201', '9'.repeat(3000)];
  return ['x'.repeat(5000), enc('é\u0000'), '%00', schema.enum ? 'zz-not-an-option' : enc('\u202e'), ''];
}

/** Whole bodies that are not the object the operation takes. */
export function wholeBodyMutations(): { what: string; json?: unknown; raw?: { body: string | Buffer; contentType: string } }[] {
  return [
    { what: 'an array body', json: [] },
    { what: 'a string body', json: 'text' },
    { what: 'a number body', json: 42 },
    { what: 'a null body', raw: { body: 'null', contentType: 'application/json' } },
    { what: 'malformed JSON', raw: { body: '{"a": ', contentType: 'application/json' } },
    { what: 'a text/plain body', raw: { body: 'hello', contentType: 'text/plain' } },
    { what: 'a __proto__ member', raw: { body: '{"__proto__": {"isAdmin": true}}', contentType: 'application/json' } },
    { what: 'a constructor.prototype member', raw: { body: '{"constructor": {"prototype": {"isAdmin": true}}}', contentType: 'application/json' } },
    { what: 'a toString member', raw: { body: '{"toString": "x"}', contentType: 'application/json' } },
    { what: 'JSON nested 50,000 arrays deep', raw: { body: '['.repeat(50_000) + ']'.repeat(50_000), contentType: 'application/json' } },
    { what: 'JSON nested 20,000 objects deep', raw: { body: '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000), contentType: 'application/json' } },
    { what: 'a body over 1 MB', raw: { body: JSON.stringify({ a: 'x'.repeat(1_100_000) }), contentType: 'application/json' } },
    { what: 'a body in UTF-16', raw: { body: Buffer.from('{"a":1}', 'utf16le'), contentType: 'application/json; charset=utf-16' } },
  ];
}

/** The body-member mutations of a JSON body schema applied to a valid body. */
export function bodyMemberMutations(
  schema: Schema,
  doc: OpenApiDocument,
  valid: Record<string, unknown>,
): { what: string; json: unknown; member: string | null }[] {
  const s = resolve(doc, schema);
  const out: { what: string; json: unknown; member: string | null }[] = [];
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const p = resolve(doc, prop);
    if ((s.required ?? []).includes(name)) {
      const { [name]: _dropped, ...rest } = valid;
      out.push({ what: `without the required ${name}`, json: rest, member: name });
    }
    for (const w of wrongValues(p)) out.push({ what: `${name} as ${w.what}`, json: { ...valid, [name]: w.value }, member: name });
  }
  out.push({ what: 'an unknown member', json: { ...valid, zz_unknown: 1 }, member: 'zz_unknown' });
  out.push({ what: 'an unknown member named like a column', json: { ...valid, uid: 1, owner_ref: 1, is_admin: true }, member: null });
  return out;
}
