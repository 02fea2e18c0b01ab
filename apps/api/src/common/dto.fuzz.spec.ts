import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ArgumentMetadata, DynamicModule, Type } from '@nestjs/common';
import { loadConfig } from '@dts/platform';
import { TransformationType } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AppModule } from '../app.module';
import { ApiException } from './http/api.exception';
import { ApiValidationPipe } from './http/validation.pipe';

/*
 * Property-based tests of every class-validator DTO a route takes (issue #9, fuzzing), through the
 * app's own ValidationPipe. The DTOs are discovered from Nest's route metadata (the @Body() and
 * @Query() parameter types of every controller the app module mounts), so a new DTO is fuzzed
 * without being listed here. fast-check prints the seed and the shrunk counterexample on failure.
 */

// ---------------------------------------------------------------------------------------------
// Discovery

type DtoUse = { dto: Type; kind: 'body' | 'query'; route: string };

function controllersOf(root: DynamicModule): Type[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type>();
  const visit = (entry: unknown): void => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    if (typeof entry === 'object' && 'forwardRef' in entry) return visit((entry as { forwardRef: () => unknown }).forwardRef());
    if (typeof entry === 'object' && 'module' in entry) {
      const dyn = entry as DynamicModule;
      for (const c of dyn.controllers ?? []) controllers.add(c);
      for (const i of dyn.imports ?? []) visit(i);
      return visit(dyn.module);
    }
    if (typeof entry !== 'function') return;
    for (const c of (Reflect.getMetadata('controllers', entry) as Type[] | undefined) ?? []) controllers.add(c);
    for (const i of (Reflect.getMetadata('imports', entry) as unknown[] | undefined) ?? []) visit(i);
  };
  visit(root);
  return [...controllers];
}

function dtoUses(controllers: Type[]): DtoUse[] {
  const uses: DtoUse[] = [];
  for (const controller of controllers) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      if (method === 'constructor') continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as unknown[];
      for (const [key, arg] of Object.entries(args)) {
        const paramType = Number(key.split(':')[0]);
        const kind = paramType === RouteParamtypes.BODY ? 'body' : paramType === RouteParamtypes.QUERY ? 'query' : null;
        const type = types[arg.index];
        // A whole body or query typed with a class of ours is validated by the pipe; `unknown`
        // (Object) and single query members are parsed by the handlers themselves.
        if (!kind || arg.data !== undefined || typeof type !== 'function' || [Object, String, Number, Boolean, Array].includes(type as never)) continue;
        uses.push({ dto: type as Type, kind, route: `${controller.name}.${method}` });
      }
    }
  }
  return uses;
}

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  INGEST_SECRET: 'test-ingest-secret-0123456789',
  TOKEN_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef0123456789',
});
const uses = dtoUses(controllersOf(AppModule.forRoot(config, { url: 'postgres://unused', embedded: true })));
const dtos = [...new Map(uses.map((u) => [u.dto, u])).values()];

// ---------------------------------------------------------------------------------------------
// Generators from the validation metadata

const storage = getMetadataStorage();
const metadataOf = (dto: Type): ValidationMetadata[] => storage.getTargetValidationMetadatas(dto, '', true, false);

/** The decorators of one property, by name (isString, maxLength, conditionalValidation, …). */
function rulesOf(dto: Type): Map<string, Map<string, ValidationMetadata>> {
  const rules = new Map<string, Map<string, ValidationMetadata>>();
  for (const m of metadataOf(dto)) {
    const name = m.name ?? (m.constraintCls ? (storage.getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? m.constraintCls.name) : m.type);
    const byName = rules.get(m.propertyName) ?? new Map<string, ValidationMetadata>();
    byName.set(m.type === 'conditionalValidation' ? (m.name === 'isOptional' ? 'isOptional' : 'validateIf') : name, m);
    rules.set(m.propertyName, byName);
  }
  return rules;
}

const c = (rules: Map<string, ValidationMetadata>, name: string, i = 0) => rules.get(name)?.constraints?.[i] as unknown;

// class-transformer ships no types for its metadata storage, which holds the @Transform()s.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: {
    findTransformMetadatas(target: Type, property: string, type: TransformationType): unknown[];
    findTypeMetadata(target: Type, property: string): { typeFunction: () => unknown } | undefined;
  };
};

/** Whether class-transformer converts this member first (digits arriving as text). */
const transformed = (dto: Type, property: string) => defaultMetadataStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0;

/** Whether a JSON value has a member named like something every object inherits (refused by the pipe). */
const shadows = (v: unknown): boolean =>
  v !== null && typeof v === 'object' && Object.keys(v).some((k) => k in Object.prototype || k === 'prototype' || shadows((v as Record<string, unknown>)[k]));

/** Values that satisfy one property's decorators; null means this helper cannot build one. */
function validValue(dto: Type, kind: 'body' | 'query', property: string, rules: Map<string, ValidationMetadata>): fc.Arbitrary<unknown> | null {
  const nested = rules.has('nestedValidation') ? defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() : undefined;
  if (typeof nested === 'function') return validDto(nested as Type, kind);
  if (rules.has('isArray')) return validArray(rules);
  if (rules.has('isTopicTemplate')) return fc.constantFrom('dts/{account}/{devEUI}/{event}', 'sensors/{devEUI}', 'farm/north/{event}');
  if (rules.has('isGeoJsonPolygon')) {
    return fc
      .tuple(fc.double({ min: -170, max: 170, noNaN: true }), fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: 0.001, max: 5, noNaN: true }))
      .map(([lon, lat, d]) => ({
        type: 'Polygon',
        coordinates: [
          [
            [lon, lat],
            [lon + d, lat],
            [lon + d, lat + d],
            [lon, lat],
          ],
        ],
      }));
  }
  if (rules.has('futureTimestamp')) {
    return fc.integer({ min: 2100, max: 2900 }).map((y) => `${y}-06-15 12:30:00`);
  }
  // A codec import's scripts: one to four file names (no name an object inherits) to script text.
  if (rules.has('isFileMap')) return fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_-]{0,30}\.js$/), fc.string({ maxLength: 200 }), { minKeys: 1, maxKeys: 4 });
  if (rules.has('isBoundedJson')) return fc.jsonValue({ maxDepth: 2 }).filter((v) => JSON.stringify(v).length < 2000 && !shadows(v));
  if (rules.has('isIn')) return fc.constantFrom(...(c(rules, 'isIn') as unknown[]));
  if (rules.has('isBoolean')) return fc.boolean();
  if (rules.has('isInt') || rules.has('isNumber')) {
    const min = (c(rules, 'min') as number | undefined) ?? -1e6;
    const max = (c(rules, 'max') as number | undefined) ?? 1e9;
    const n = rules.has('isInt') ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    // Query and multipart members arrive as text; their DTOs convert digits with @Transform.
    if (kind === 'query') return n.map(String);
    return transformed(dto, property) ? fc.oneof(n, n.map(String)) : n;
  }
  if (rules.has('isEmail')) return fc.emailAddress().filter((e) => e.length <= 254 && !/[^\x21-\x7e]/.test(e));
  if (rules.has('isObject')) return fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }).filter((v) => !shadows(v));
  if (rules.has('isString') || rules.has('matches')) {
    const matches = c(rules, 'matches') as RegExp | undefined;
    const minLength = (c(rules, 'minLength') as number | undefined) ?? (c(rules, 'isLength', 0) as number | undefined) ?? 0;
    const maxLength = Math.min((c(rules, 'maxLength') as number | undefined) ?? (c(rules, 'isLength', 1) as number | undefined) ?? 200, 300);
    if (matches) return fc.stringMatching(matches).filter((s) => s.length >= minLength && s.length <= maxLength);
    return fc.string({ minLength, maxLength });
  }
  return null;
}

/** Arrays whose elements satisfy the `each` decorators, within the array's size bounds. */
function validArray(rules: Map<string, ValidationMetadata>): fc.Arbitrary<unknown[]> | null {
  const bounds = { minLength: (c(rules, 'arrayMinSize') as number | undefined) ?? 0, maxLength: (c(rules, 'arrayMaxSize') as number | undefined) ?? 5 };
  if (rules.has('isIn')) return fc.uniqueArray(fc.constantFrom(...(c(rules, 'isIn') as unknown[])), bounds);
  if (rules.has('eachEui')) return fc.array(fc.stringMatching(/^[0-9A-F]{16}$/), bounds);
  if (rules.has('isString')) {
    const minLength = (c(rules, 'minLength') as number | undefined) ?? 0;
    const maxLength = Math.min((c(rules, 'maxLength') as number | undefined) ?? 200, 300);
    return fc.array(fc.string({ minLength, maxLength }), bounds);
  }
  return null;
}

const isOptional = (rules: Map<string, ValidationMetadata>) => rules.has('isOptional');

/** Objects every decorator of the DTO accepts, with optional members sometimes left out or null. */
function validDto(dto: Type, kind: 'body' | 'query'): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [property, rules] of rulesOf(dto)) {
    const value = validValue(dto, kind, property, rules);
    if (!value) throw new Error(`${dto.name}.${property}: no generator for its decorators (${[...rules.keys()].join(', ')}); teach validValue`);
    shape[property] =
      isOptional(rules) && !rules.has('isBoundedJson') && kind === 'body'
        ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) })
        : value;
    if (!isOptional(rules)) required.push(property);
  }
  return fc.record(shape, { requiredKeys: required });
}

/** Values of the wrong type or shape for any member. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '0x10',
    '1e3',
    ' 1',
    '',
    '\u0000',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    -0,
    1.5,
    -1,
    2 ** 53,
    Number.MAX_VALUE,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 5_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 20, max: 200 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
  fc.integer({ min: 20, max: 200 }).map((depth) => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as unknown),
  fc
    .constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]],"__proto__":1}')
    .map((s) => JSON.parse(s) as unknown),
);

const oddKey = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'uid',
    'id',
    'username',
    'devEUI',
    'ts_created',
    '',
    ' ',
    'a.b',
    '0',
  ),
);

type Mutation = { input: unknown; missing?: string; unknown?: string };

function mutations(dto: Type, kind: 'body' | 'query'): fc.Arbitrary<Mutation> {
  const rules = rulesOf(dto);
  const properties = [...rules.keys()];
  const required = properties.filter((p) => !isOptional(rules.get(p)!) && !rules.get(p)!.has('validateIf'));
  const valid = validDto(dto, kind);
  const reparse = (o: unknown) => JSON.parse(JSON.stringify(o)) as unknown;
  const options: fc.Arbitrary<Mutation>[] = [
    // Anything at all as the whole body or query.
    junk.map((input) => ({ input })),
    fc.dictionary(oddKey, junk, { maxKeys: 6 }).map((input) => ({ input: reparse(input) })),
    // A valid object with one member replaced by junk.
    fc.tuple(valid, fc.constantFrom(...properties), junk).map(([o, p, v]) => ({ input: reparse({ ...o, [p]: v }) })),
    // A valid object with an unknown member (JSON.parse makes even __proto__ an own member, as body-parser does).
    fc
      .tuple(
        valid,
        oddKey.filter((k) => !properties.includes(k)),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([o, k, v]) => {
        const input = reparse(o) as Record<string, unknown>;
        Object.defineProperty(input, k, { value: v, enumerable: true, configurable: true, writable: true });
        return { input, unknown: k };
      }),
  ];
  if (required.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([o, p]) => {
        const input = reparse(o) as Record<string, unknown>;
        delete input[p];
        return { input, missing: p };
      }),
    );
  }
  return fc.oneof(...options);
}

/** As the query string parser hands it over: strings, arrays of strings. */
function queryMutations(dto: Type): fc.Arbitrary<Mutation> {
  const properties = [...rulesOf(dto).keys()];
  const text = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom('NaN', 'Infinity', '-1', '1e3', '0x10', '1.5', '99999999999999999999', '', ' ', '-0'),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => '9'.repeat(n)),
  );
  const value = fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: fc.array(text, { minLength: 2, maxLength: 3 }) });
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...properties), oddKey), value, { maxKeys: 5 })
    .map((input) => ({ input: JSON.parse(JSON.stringify(input)) as unknown }));
}

// ---------------------------------------------------------------------------------------------
// The properties

const pipe = new ApiValidationPipe();

async function run(dto: Type, kind: 'body' | 'query', input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; exception: ApiException }> {
  const metadata: ArgumentMetadata = { type: kind, metatype: dto, data: undefined };
  try {
    return { ok: true, value: await pipe.transform(input, metadata) };
  } catch (error) {
    if (error instanceof ApiException) return { ok: false, exception: error };
    throw new Error(
      `${dto.name}: the pipe threw ${(error as Error)?.constructor?.name}: ${(error as Error)?.message} for ${JSON.stringify(input)?.slice(0, 300)}`,
    );
  }
}

function expectProperRefusal(exception: ApiException, input: unknown): void {
  expect(exception.status).toBe(400);
  expect(exception.entries.length).toBeGreaterThan(0);
  for (const e of exception.entries) {
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(typeof e.field).toBe('string');
    // Empty only when a member's name really is "" ({"": 1}).
    if (e.field === '') expect(Object.keys(input as object)).toContain('');
    expect(typeof e.message).toBe('string');
  }
}

describe('DTO discovery', () => {
  it('finds the body and query DTOs of the mounted controllers', () => {
    expect(dtos.map((u) => u.dto.name)).toEqual(
      expect.arrayContaining(['RegisterDto', 'LoginDto', 'CreateCommandDto', 'DeviceMetaUpdateDto', 'TableQueryDto', 'UploadImageDto', 'IngestImageDto']),
    );
  });

  it('leaves out no validated class of the api (a DTO no route uses is dead code or a missed route)', () => {
    const root = join(__dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !/\.(spec|int-spec)\.ts$/.test(entry.name) && readFileSync(path, 'utf8').includes("from 'class-validator'"))
          files.push(path);
      }
    };
    walk(root);
    const validated: string[] = [];
    for (const file of files) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      for (const exported of Object.values(require(file) as Record<string, unknown>)) {
        if (typeof exported === 'function' && metadataOf(exported as Type).length > 0) validated.push(`${relative(root, file)}#${(exported as Type).name}`);
      }
    }
    // A route's DTO also covers the classes it extends and the classes of its nested members
    // (@ValidateNested with @Type): those are validated through it.
    const discovered = new Set<string>();
    const cover = (dto: Type): void => {
      if (discovered.has(dto.name)) return;
      discovered.add(dto.name);
      const parent = Object.getPrototypeOf(dto) as Type | null;
      if (parent && parent !== Function.prototype && metadataOf(parent).length > 0) cover(parent);
      for (const m of metadataOf(dto)) {
        const nested = defaultMetadataStorage.findTypeMetadata(dto, m.propertyName)?.typeFunction();
        if (typeof nested === 'function' && metadataOf(nested as Type).length > 0) cover(nested as Type);
      }
    };
    for (const u of dtos) cover(u.dto);
    // The *Form classes only describe multipart bodies in the OpenAPI document (they add `file`).
    expect(validated.filter((v) => !discovered.has(v.split('#')[1]!) && !/Form$/.test(v))).toEqual([]);
    expect(validated.length).toBeGreaterThanOrEqual(dtos.length);
  });
});

describe.each(dtos.map((u) => [u.dto.name, u] as const))('%s', (_name, { dto, kind }) => {
  it('accepts generated valid input', async () => {
    await fc.assert(
      fc.asyncProperty(validDto(dto, kind), async (input) => {
        const r = await run(dto, kind, JSON.parse(JSON.stringify(input)));
        if (!r.ok) throw new Error(`valid input refused: ${JSON.stringify(input).slice(0, 300)} → ${JSON.stringify(r.exception.entries)}`);
        expect(r.value).toBeInstanceOf(dto);
      }),
      { numRuns: 150 },
    );
  });

  it('validates or refuses any mutated input with 400 VALIDATION_FAILED naming the member, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(kind === 'query' ? fc.oneof(queryMutations(dto), mutations(dto, kind)) : mutations(dto, kind), async (m) => {
        const r = await run(dto, kind, m.input);
        if (r.ok) {
          expect(r.value).toBeInstanceOf(dto);
          // Nothing unknown slips through, not even onto the prototype.
          const known = new Set(rulesOf(dto).keys());
          expect(Object.keys(r.value as object).filter((k) => !known.has(k))).toEqual([]);
          expect(Object.getPrototypeOf(r.value)).toBe(dto.prototype);
          expect(m.missing).toBeUndefined();
          expect(m.unknown).toBeUndefined();
          return;
        }
        expectProperRefusal(r.exception, m.input);
        const fields = r.exception.entries.map((e) => e.field);
        if (m.missing) expect(fields).toContain(m.missing);
        // The unknown member itself, or a member inside it that is refused first.
        if (m.unknown !== undefined) expect(fields.some((f) => f === m.unknown || f?.startsWith(`${m.unknown}.`))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('members named like inherited properties (found by this fuzz)', () => {
  // class-transformer skipped them silently: ?toString=x passed, and a tag named valueOf was
  // dropped from the stored tags. They are refused now, naming the member.
  it.each([
    ['body', 'RegisterDeviceDto', { label: 'x', tags: { valueOf: 1, a: 2 } }, 'tags.valueOf'],
    ['body', 'LoginDto', { username: 'a', password: 'b', toString: 'x' }, 'toString'],
    ['query', 'TableQueryDto', Object.assign(Object.create(null) as object, { hasOwnProperty: '1', limit: '5' }), 'hasOwnProperty'],
    ['query', 'AutocompleteQueryDto', Object.assign(Object.create(null) as object, { ['__proto__']: 'x' }), '__proto__'],
  ])('%s of %s: %j', async (kind, name, input, field) => {
    const use = dtos.find((u) => u.dto.name === name)!;
    const r = await run(use.dto, kind as 'body' | 'query', input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.exception.entries).toEqual([{ code: 'VALIDATION_FAILED', field, message: expect.any(String) }]);
  });
});
