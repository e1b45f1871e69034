import fc from 'fast-check';
import { SOAK } from '../support/iterations.js';

// Building blocks of hostile tool arguments: what a confused or adversarial model, or a broken client, might send.

/** Single characters and fragments that tend to break path, text and regex handling. */
const SPECIAL_FRAGMENTS = [
  '\0',
  '\r',
  '\n',
  '\r\n',
  '\t',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u200b',
  '\u200d',
  '\u202e',
  '\ud800',
  '\udfff',
  '\ud83d',
  '😀',
  '👩‍👩‍👧',
  'é',
  'e\u0301',
  '\u212b',
  'İ',
  'ß',
  '∕',
  '／',
  '．',
  '..',
  '.',
  '/',
  '\\',
  '~',
  '~root',
  '*',
  '**',
  '?',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '!',
  '$&',
  '$1',
  '$$',
  '%s',
  '${x}',
  "'",
  '"',
  '`',
  ' ',
  'con',
  'NUL',
  'C:',
  'C:\\',
  '\\\\?\\',
  '//server/share',
  '\\\\server\\share',
  'file:///etc/passwd',
  '\\x00',
  '\\u0000',
  '-',
  '--',
  '-rf',
];

/** A fragment from {@link SPECIAL_FRAGMENTS}. */
export const specialFragment = fc.constantFrom(...SPECIAL_FRAGMENTS);

/**
 * Very long strings of one repeated, often awkward, unit: up to 64k code units (200k in soak runs; as a path, such a
 * string costs the path policy seconds, see the report).
 */
export const hugeString = fc
  .tuple(
    fc.constantFrom('a', 'é', '😀', '\n', '\r\n', '/', 'ab/', '\0', '\ud800', '.', 'x\u0301', '\t '),
    fc.integer({ min: 1_000, max: SOAK ? 200_000 : 64_000 }),
  )
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

/** Strings built from `names` (real names in the work dir) glued to awkward fragments. */
export function gluedString(names: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(specialFragment, fc.string({ maxLength: 6 }), fc.constantFrom(...names));
  return fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join(''));
}

/** Any string a model could send: random, full Unicode (lone surrogates included), graphemes, glued, huge. */
export function hostileString(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme' }) },
    { weight: 2, arbitrary: specialFragment },
    { weight: 4, arbitrary: gluedString(names) },
    { weight: 1, arbitrary: hugeString },
  );
}

/** Numbers at and around every limit the tools have, plus non-integers and non-finite values. */
const BOUNDARY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  2,
  999,
  1000,
  1001,
  -999,
  -1000,
  -1001,
  2000,
  102_400,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.MIN_SAFE_INTEGER,
  1e308,
  -1e308,
  Infinity,
  -Infinity,
  Number.NaN,
  0.5,
  5.5,
  -0.5,
  1e-300,
  Number.EPSILON,
];

/** Strings a lenient integer parser might take for numbers, or choke on. */
const NUMERIC_STRINGS = [
  '5',
  ' 7 ',
  '+3',
  '-3',
  '0',
  '-0',
  '1e3',
  '0x10',
  '1_000',
  '',
  ' ',
  '9'.repeat(400),
  '-1001',
  '٣',
  '５',
  '5.5',
  'Infinity',
  'NaN',
  '1\n',
  '\u00a02',
];

/** A value for an integer field: boundaries, random integers and doubles, numeric-looking strings. */
export const hostileInteger: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...BOUNDARY_NUMBERS),
  fc.integer({ min: -2_000, max: 2_000 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...NUMERIC_STRINGS),
);

function refuse(): never {
  throw new Error('hostile arguments refuse to be read');
}

/**
 * A Proxy whose every trap throws on a named property. Symbol keys stay harmless, since fast-check looks up its own
 * (to print and clone the value) before any tool sees it.
 */
function throwingProxy(target: object, name: string): object {
  const print = () => name;
  return new Proxy(target, {
    get: (_target, key) =>
      typeof key !== 'symbol' ? refuse() : key === fc.toStringMethod ? print : undefined,
    has: (_target, key) => (typeof key !== 'symbol' ? refuse() : key === fc.toStringMethod),
    ownKeys: refuse,
    getOwnPropertyDescriptor: refuse,
    getPrototypeOf: refuse,
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}

/** Values that throw when a tool reads them: getters and Proxies (a broken or hostile host's arguments). */
export function throwingValue(fieldNames: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...fieldNames, 'path').map((field) => {
      const value = { [fc.toStringMethod]: () => `{ get ${field}() { throw } }` };
      Object.defineProperty(value, field, { enumerable: true, get: refuse });
      return value;
    }),
    fc.constant(null).map(() => throwingProxy({}, 'Proxy({}) that throws')),
    fc.constant(null).map(() => throwingProxy([], 'Proxy([]) that throws')),
  );
}

/** Anything at all: strings, numbers, booleans, null, undefined, nested objects and arrays, odd objects. */
export function anyValue(names: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    hostileString(names),
    hostileInteger,
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.anything({
      maxDepth: 2,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withSparseArray: true,
    }),
    fc.array(hostileString(names), { maxLength: 3 }),
    throwingValue(['old', 'new']),
  );
}

/** Key names that have bitten JavaScript code before, plus random ones. */
const EXTRA_KEYS = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'then',
    'PATH',
    'path ',
    'Path',
    '-n',
    '',
  ),
  fc.string({ maxLength: 10 }),
);

/** Builds the argument object: present fields (own properties, so `__proto__` stays data) after the extras. */
function argumentObject(
  fieldEntries: fc.Arbitrary<[string, unknown] | undefined>[] | fc.Arbitrary<[string, unknown]>[],
  extras: fc.Arbitrary<[string, unknown][]>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.tuple(...fieldEntries), extras)
    .map(([present, extra]) =>
      Object.fromEntries([
        ...extra,
        ...present.filter((entry): entry is [string, unknown] => entry !== undefined),
      ]),
    );
}

/**
 * Hostile arguments for a tool with the given fields, in three flavours. Valid: every `required` field present,
 * the others usually, all with values from `fields` (meant to be valid, so these calls reach the tools' real
 * work). Mixed: any field may be missing or hold any value at all. Not an object at all. Random extra keys (an own
 * `__proto__` among them) ride along with both object flavours.
 */
export function hostileArguments(
  fields: Record<string, fc.Arbitrary<unknown>>,
  required: readonly string[],
  names: readonly string[],
): fc.Arbitrary<unknown> {
  const any = anyValue(names);
  const extras = fc.array(fc.tuple(EXTRA_KEYS, any), { maxLength: 3 });
  const valid = Object.entries(fields).map(([key, value]) => {
    const entry = fc.tuple(fc.constant(key), value);
    return required.includes(key) ? entry : fc.option(entry, { freq: 4, nil: undefined });
  });
  const mixed = Object.entries(fields).map(([key, value]) =>
    fc.option(
      fc.tuple(fc.constant(key), fc.oneof({ weight: 2, arbitrary: value }, { weight: 1, arbitrary: any })),
      { freq: 8, nil: undefined },
    ),
  );
  return fc.oneof(
    { weight: 8, arbitrary: argumentObject(valid, extras) },
    { weight: 6, arbitrary: argumentObject(mixed, extras) },
    { weight: 1, arbitrary: any },
    { weight: 1, arbitrary: throwingValue(Object.keys(fields)) },
  );
}
