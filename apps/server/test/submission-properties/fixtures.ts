/**
 * What the submission-property files share: a server and a key, random form schemas, and the
 * arbitraries of valid values, of corruptions and of any body at all (issue 3).
 *
 * fast-check prints the failing counterexample (and its seed) when a property fails.
 */
import fc from 'fast-check';
import { beforeAll, expect } from 'vitest';
import { type Account, createForm, type Res, type TestServer, useTestServer } from '@lfk/server/testing';

export const TYPES = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select'] as const;
export type FieldType = (typeof TYPES)[number];
export interface Field {
  name: string;
  type: FieldType;
  required: boolean;
  options?: string[];
}
export type Mode = 'api_key' | 'browser';
export type Encoding = 'json' | 'urlencoded';

/** A field left out of the body altogether. */
export const ABSENT = Symbol('absent');
/** One field's value as sent, and as it must be stored (ABSENT: not in the stored data). */
export interface Entry {
  sent: unknown;
  expected: unknown;
}

export const ORIGIN = 'https://shop.example.com';
export const SUBMISSION_LIMIT = 64 * 1024;
export const NUM_RUNS = 50;

export let t: TestServer;
export let owner: Account;
export let key: string;

/** The test file's server, on a fresh database, and a key of its first account's workspace: made before the file's tests, closed after them. */
export function useWorld(): void {
  t = useTestServer();
  beforeAll(async () => {
    owner = await t.signup();
    key = (await t.createKey(owner.token, owner.workspaceId)).key;
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers against the server

export async function createPropertyForm(schema: Field[], mode: Mode): Promise<string> {
  // No content filter: random values are what these properties are about, and some read as spam (its own tests are in inbox/).
  const form = await createForm(t, key, {
    name: 'Property form',
    schema,
    submission_mode: mode,
    allowed_origins: mode === 'browser' ? [ORIGIN] : [],
    spam_filter: { enabled: false },
  });
  // The schema is kept as given (options are already trimmed, `required` is explicit).
  expect(form.schema).toEqual(schema);
  return form.id;
}

export async function submit(formId: string, mode: Mode, raw: string, contentType = 'application/json'): Promise<Res> {
  return t.request('POST', `/v1/forms/${formId}/submissions`, {
    raw,
    headers: { 'content-type': contentType, ...(mode === 'browser' ? { origin: ORIGIN } : {}) },
    ...(mode === 'api_key' ? { token: key } : {}),
  });
}

export async function storedSubmissions(formId: string): Promise<any[]> {
  const res = await t.request('GET', `/v1/forms/${formId}/submissions?limit=100`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.json.data;
}

/** JSON text of an object from entries in order; keeps `__proto__` an own key, skips ABSENT values. */
export function objectText(entries: [string, unknown][]): string {
  const parts = entries.filter(([, v]) => v !== ABSENT).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${parts.join(',')}}`;
}

/** The same values as an HTML form would send them: strings only, null as an empty value. */
export function urlencodedText(entries: [string, unknown][]): string {
  const pairs = entries.filter(([, v]) => v !== ABSENT).map(([k, v]): [string, string] => [k, v === null ? '' : String(v)]);
  return new URLSearchParams(pairs).toString();
}

/** What JSON makes of a value (-0 becomes 0), for exact comparison with what was read back. */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

export function sorted(values: string[]): string[] {
  return [...values].sort();
}

// ---------------------------------------------------------------------------------------------
// Arbitraries: schemas

/** Names an object already answers to are fair field names too (`constructor`, `toString`, …). */
export const fieldNameArb = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/) },
  { weight: 1, arbitrary: fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf') },
);

// biome-ignore lint/suspicious/noControlCharactersInRegex: an option is one line: no control characters or line breaks.
const NOT_AN_OPTION = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
export const optionArb = fc.oneof(
  fc.constantFrom('Yes', 'No', 'Maybe', 'Red', 'Green', 'Blue', '🙂 Happy', 'Ünïcödé', '1', 'true', 'Other (please say)'),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && s.length <= 200 && s.isWellFormed() && !NOT_AN_OPTION.test(s)),
);

export const fieldArb: fc.Arbitrary<Field> = fc
  .record({
    name: fieldNameArb,
    type: fc.constantFrom(...TYPES),
    required: fc.boolean(),
    options: fc.uniqueArray(optionArb, { minLength: 1, maxLength: 5 }),
  })
  .map(({ name, type, required, options }) => ({ name, type, required, ...(type === 'select' ? { options } : {}) }));

export const schemaArb = fc.uniqueArray(fieldArb, { minLength: 1, maxLength: 8, selector: (f) => f.name });

// ---------------------------------------------------------------------------------------------
// Arbitraries: valid values

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** One line a person could type: any unicode (emoji, combining marks, RTL, spaces), not blank, no control characters. */
export const textArb = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
    fc.constantFrom(
      '  leading and trailing  ',
      '👩‍👩‍👧‍👦 family',
      'e\u0301 combining',
      '\u200b zero width',
      'RTL \u202e txet',
      '\ufeffBOM',
      '𝕏 astral',
      'quotes " \\ / \' and <b>tags</b>',
      "Robert'); DROP TABLE submissions;--",
    ),
  )
  .filter((s) => s.trim() !== '' && !NOT_ONE_LINE.test(s) && s.isWellFormed());

/** Text over several lines: tabs, CR and LF are layout; no other control character. */
export const textareaArb = fc.oneof(
  textArb,
  fc.constantFrom('line one\nline two\r\nline three', '\ttabbed\t', ' \r\n padded \n'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 }).filter((s) => s.trim() !== '' && !CONTROL_BUT_LAYOUT.test(s)),
);

/** Spaces a browser or a careless client may leave around a one-line value that is stored trimmed. */
export const padArb = fc.constantFrom('', '', ' ', '  ');
export function padded(arb: fc.Arbitrary<string>): fc.Arbitrary<Entry> {
  return fc.tuple(padArb, arb, padArb).map(([a, v, b]) => ({ sent: `${a}${v}${b}`, expected: v }));
}

export const labelArb = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
export const emailArb = fc
  .tuple(fc.array(fc.stringMatching(/^[A-Za-z0-9_+-]{1,10}$/), { minLength: 1, maxLength: 3 }), fc.array(labelArb, { minLength: 1, maxLength: 3 }))
  .map(([local, domain]) => `${local.join('.')}@${domain.join('.')}.com`);

export const urlArb = fc
  .tuple(
    fc.constantFrom('https', 'http'),
    fc.array(labelArb, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('com', 'org', 'example'),
    fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { maxLength: 3 }),
    fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/), { nil: undefined }),
  )
  .map(([scheme, host, tld, path, query]) => `${scheme}://${host.join('.')}.${tld}/${path.join('/')}${query ? `?${query}` : ''}`);

export const telArb = fc
  .tuple(fc.constantFrom('', '+'), fc.array(fc.stringMatching(/^\d{1,4}$/), { minLength: 1, maxLength: 5 }), fc.constantFrom(' ', '-', '.', ''), fc.boolean())
  .map(([plus, groups, sep, parens]) => {
    const body = groups.join(sep);
    return parens && groups.length > 1 ? `${plus}(${groups[0]}) ${groups.slice(1).join(sep)}` : `${plus}${body}`;
  })
  .filter((s) => s.length <= 32 && (s.match(/\d/g)?.length ?? 0) >= 3);

export function dateArb(minYear: number, maxYear: number): fc.Arbitrary<string> {
  return fc.date({ min: new Date(Date.UTC(minYear, 0, 1)), max: new Date(Date.UTC(maxYear, 11, 31)), noInvalidDate: true }).map((d) => {
    const y = String(d.getUTCFullYear()).padStart(4, '0');
    const m = String(d.getUTCMonth() + 1).padStart(2, '0');
    const day = String(d.getUTCDate()).padStart(2, '0');
    return `${y}-${m}-${day}`;
  });
}

export const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
export const numberEntryArb: fc.Arbitrary<Entry> = fc.oneof(
  finiteDouble.map((n) => ({ sent: n, expected: n })),
  fc.integer().map((n) => ({ sent: n, expected: n })),
  fc.maxSafeInteger().map((n) => ({ sent: n, expected: n })),
  // Decimal strings, as an HTML form sends them: stored as the number they spell.
  padded(finiteDouble.map((n) => String(n))).map(({ sent, expected }) => ({ sent, expected: Number(expected) })),
  padded(fc.stringMatching(/^[+-]?(\d{1,15}(\.\d{0,10})?|\.\d{1,10})([eE][+-]?\d{1,3})?$/).filter((s) => Number.isFinite(Number(s)))).map(
    ({ sent, expected }) => ({ sent, expected: Number(expected) }),
  ),
);

export const TRUE_WORDS = ['on', 'true', '1', 'yes'];
export const FALSE_WORDS = ['off', 'false', '0', 'no'];
export function checkboxWordArb(words: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(padArb, fc.constantFrom(...words), fc.constantFrom('lower', 'upper', 'title'), padArb)
    .map(([a, w, c, b]) => `${a}${c === 'upper' ? w.toUpperCase() : c === 'title' ? w[0]!.toUpperCase() + w.slice(1) : w}${b}`);
}

/** Blank: absent, empty, spaces or null (and, in a textarea, empty lines). */
export const blankArb = fc.constantFrom<unknown>(ABSENT, '', '   ', null);
export const textareaBlankArb = fc.oneof(blankArb, fc.constant<unknown>('\t\r\n'));

export function presentValueArb(field: Field): fc.Arbitrary<Entry> {
  switch (field.type) {
    case 'text':
      return textArb.map((s) => ({ sent: s, expected: s }));
    case 'textarea':
      return textareaArb.map((s) => ({ sent: s, expected: s }));
    case 'email':
      return padded(emailArb);
    case 'url':
      return padded(urlArb);
    case 'tel':
      return padded(telArb);
    case 'date':
      return padded(dateArb(1000, 9999));
    case 'number':
      return numberEntryArb;
    case 'select':
      return fc.constantFrom(...field.options!).map((o) => ({ sent: o, expected: o }));
    case 'checkbox':
      return field.required
        ? fc.oneof(
            fc.constant<Entry>({ sent: true, expected: true }),
            checkboxWordArb(TRUE_WORDS).map((w) => ({ sent: w, expected: true })),
          )
        : fc.oneof(
            fc.boolean().map((b) => ({ sent: b, expected: b })),
            checkboxWordArb(TRUE_WORDS).map((w) => ({ sent: w, expected: true })),
            checkboxWordArb(FALSE_WORDS).map((w) => ({ sent: w, expected: false })),
          );
  }
}

export function validEntryArb(field: Field): fc.Arbitrary<Entry> {
  if (field.required) return presentValueArb(field);
  const blank = (field.type === 'textarea' ? textareaBlankArb : blankArb).map((sent) => ({ sent, expected: field.type === 'checkbox' ? false : ABSENT }));
  return fc.oneof({ weight: 3, arbitrary: presentValueArb(field) }, { weight: 1, arbitrary: blank });
}

export interface ValidCase {
  schema: Field[];
  mode: Mode;
  encoding: Encoding;
  entries: Entry[];
}

export const validCaseArb: fc.Arbitrary<ValidCase> = schemaArb.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    mode: fc.constantFrom<Mode>('api_key', 'browser'),
    encoding: fc.constantFrom<Encoding>('json', 'json', 'urlencoded'),
    entries: fc.tuple(...schema.map(validEntryArb)),
  }),
);

// ---------------------------------------------------------------------------------------------
// Arbitraries: corruptions (each one guarantees a detail for its field)

export const wrongScalarArb = fc.oneof(fc.integer(), finiteDouble, fc.boolean());
export const compoundArb = fc.oneof(
  fc.constant<unknown>({}),
  fc.constant<unknown>([]),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 3 }),
);

/** Refused in any text: NUL, unpaired surrogates, and control characters that are not layout. */
export const ALWAYS_BAD = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\u001b', '\u007f', '\u0085', '\u000b'];
/** Refused in a one-line value too: tabs and line breaks. */
export const ONE_LINE_BAD = [...ALWAYS_BAD, '\t', '\n', '\r', '\u2028'];

/** A character the field refuses, put somewhere into an otherwise fine string. */
export function withBadChar(field: Field, arb: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(arb, fc.nat(), fc.constantFrom(...(field.type === 'textarea' ? ALWAYS_BAD : ONE_LINE_BAD))).map(([s, i, bad]) => {
    const at = i % (s.length + 1);
    return s.slice(0, at) + bad + s.slice(at);
  });
}

export const badEmailArb = fc.oneof(
  fc.constantFrom(
    'plainaddress',
    'a@b',
    '@example.com',
    'a@@example.com',
    'a b@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a@example.c',
    'a@-example.com',
    'a@example..com',
    `${'a'.repeat(245)}@example.com`,
  ),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }).filter((s) => !s.includes('@') && s.trim() !== ''),
);

export const badUrlArb = fc.constantFrom(
  'example.com',
  'www.example.com/path',
  'ftp://example.com/file',
  'javascript:alert(1)',
  'https://',
  'mailto:someone@example.com',
  '//example.com/x',
  'http//example.com',
  'data:text/plain,hi',
  'file:///etc/passwd',
  'https://exa mple.com',
  `https://example.com/${'a'.repeat(2100)}`,
);

export const badTelArb = fc.constantFrom('abc', '12', '1-2', '++--()..', '1'.repeat(33), '12a34', '555 CALL NOW', '+1 (555) 010#1', '٠١٢٣٤٥', '1/2/3/4');

export const impossibleDateArb = fc.oneof(
  fc.tuple(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 67 })).map(([y, m, extra]) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const day = Math.min(last + extra, 99);
    return `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  }),
  fc
    .tuple(fc.integer({ min: 1000, max: 9999 }), fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.integer({ min: 1000, max: 9999 }).map((y) => `${y}-01-00`),
  fc.constantFrom(
    '2023-02-29',
    '2100-02-29',
    '1900-02-29',
    '2024-04-31',
    '2024/01/31',
    '31-01-2024',
    '2024-1-5',
    '20240131',
    '2024-01-31T00:00:00Z',
    'yesterday',
    '+02024-01-01',
  ),
);

export const badNumberArb = fc.oneof(
  fc.boolean(),
  fc.constantFrom(
    'abc',
    '1,5',
    '0x10',
    '1e',
    'NaN',
    'Infinity',
    '-Infinity',
    '--1',
    '1 2',
    '1e999',
    '-1e400',
    '½',
    '١٢٣',
    '1_000',
    '+-1',
    '.',
    'e5',
    '1'.repeat(101),
  ),
);

export const badCheckboxArb = fc.oneof(fc.integer(), finiteDouble, fc.constantFrom('maybe', 'y', 'n', 'ja', '2', 'tru', 'on on', 'checked', '✓'));

export function badSelectArb(options: string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom(...options).map((o) => ` ${o}`),
      fc.constantFrom(...options).map((o) => `${o} `),
      fc.constantFrom(...options).map((o) => o.toUpperCase()),
      fc.constantFrom(...options).map((o) => o.toLowerCase()),
    )
    .filter((s) => s.trim() !== '' && !options.includes(s));
}

/** A string value of the right kind for the field, for the bad-character corruption. */
export function stringValueArb(field: Field): fc.Arbitrary<string> {
  switch (field.type) {
    case 'email':
      return emailArb;
    case 'url':
      return urlArb;
    case 'tel':
      return telArb;
    case 'date':
      return dateArb(1000, 9999);
    case 'select':
      return fc.constantFrom(...field.options!);
    case 'textarea':
      return textareaArb;
    case 'number':
      return fc.integer().map(String);
    case 'checkbox':
      return fc.constantFrom(...TRUE_WORDS, ...FALSE_WORDS);
    default:
      return textArb;
  }
}

/**
 * What each type refuses of its own: a number or boolean where a string is meant, and the values
 * that type rejects (a text over 10,000 characters, an address that is none, an impossible date…).
 */
const TYPE_CORRUPTIONS: Record<FieldType, (field: Field) => fc.Arbitrary<unknown>[]> = {
  text: () => [wrongScalarArb, fc.constant('x'.repeat(10_001))],
  textarea: () => [wrongScalarArb],
  url: () => [wrongScalarArb, badUrlArb],
  tel: () => [wrongScalarArb, badTelArb],
  date: () => [wrongScalarArb, impossibleDateArb],
  email: () => [wrongScalarArb, badEmailArb],
  select: (field) => [wrongScalarArb, badSelectArb(field.options!)],
  number: () => [badNumberArb],
  checkbox: () => [badCheckboxArb],
};

export function corruptionArb(field: Field): fc.Arbitrary<unknown> {
  const choices: fc.Arbitrary<unknown>[] = [compoundArb, withBadChar(field, stringValueArb(field))];
  if (field.required) choices.push(blankArb);
  if (field.required && field.type === 'checkbox') choices.push(fc.constantFrom(false, 'off', 'no', '0', 'FALSE', ' Off '));
  choices.push(...TYPE_CORRUPTIONS[field.type](field));
  return fc.oneof(...choices);
}

/** Names the schema does not know, including ones an object already has. */
export function unknownNameArb(schema: Field[]): fc.Arbitrary<string> {
  const known = new Set(schema.map((f) => f.name));
  return fc
    .oneof(
      fieldNameArb,
      fc.string({ maxLength: 100 }),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', ''),
    )
    .filter((name) => !known.has(name));
}

export interface InvalidCase {
  schema: Field[];
  mode: Mode;
  entries: Entry[];
  /** Field index → the bad value sent instead of a valid one. */
  corrupted: [number, unknown][];
  extras: [string, unknown][];
}

export const invalidCaseArb: fc.Arbitrary<InvalidCase> = schemaArb.chain((schema) =>
  fc
    .record({
      mode: fc.constantFrom<Mode>('api_key', 'browser'),
      entries: fc.tuple(...schema.map(validEntryArb)),
      indices: fc.subarray(schema.map((_, i) => i)),
      extras: fc.uniqueArray(fc.tuple(unknownNameArb(schema), fc.jsonValue({ maxDepth: 2 })), {
        maxLength: 3,
        selector: ([name]) => name,
      }),
    })
    .filter(({ indices, extras }) => indices.length + extras.length > 0)
    .chain(({ mode, entries, indices, extras }) =>
      fc.tuple(...indices.map((i) => corruptionArb(schema[i]!))).map((bad) => ({
        schema,
        mode,
        entries,
        corrupted: indices.map((i, n): [number, unknown] => [i, bad[n]]),
        extras,
      })),
    ),
);

// ---------------------------------------------------------------------------------------------
// Arbitraries: any body at all

export const TRICKY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'then', 'length', ''];

export const hugeNumberTextArb = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '0.0', '1E+308', '2e308', '123456789012345678901234567890', '0.000000000000000000000000000001'),
  fc.bigInt({ min: -(10n ** 80n), max: 10n ** 80n }).map(String),
  fc.integer({ min: 1, max: 600 }).map((n) => '9'.repeat(n)),
);

export function keyArb(schema: Field[]): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...TRICKY_KEYS, ...schema.map((f) => f.name)), fc.string({ maxLength: 12 }));
}

/** JSON text of a random value whose objects may carry `__proto__` / `constructor` keys and huge numbers. */
export function jsonTextArb(schema: Field[]): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    fc.jsonValue({ maxDepth: 0 }).map((v) => JSON.stringify(v)),
    hugeNumberTextArb,
    fc.constantFrom('"on"', '"2024-02-29"', '"a@example.com"', '"https://example.com/"', '"\\u0000"', '"\\ud800"', '""', '"   "', 'null', 'true'),
  );
  const { node } = fc.letrec<{ node: string; arr: string; obj: string }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('arr'), tie('obj')),
    arr: fc.array(tie('node'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    obj: fc.array(fc.tuple(keyArb(schema), tie('node')), { maxLength: 6 }).map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }));
  return node;
}

export function anyBodyArb(schema: Field[]): fc.Arbitrary<string> {
  const names = schema.map((f) => f.name);
  return fc.oneof(
    // A valid submission with tricky entries mixed in (none at all: it must still be taken).
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.tuple(...schema.map(validEntryArb)),
          fc.oneof(fc.constant<[string, string][]>([]), fc.array(fc.tuple(keyArb(schema), jsonTextArb(schema)), { minLength: 1, maxLength: 3 })),
        )
        .map(([entries, tricky]) => {
          const parts = schema
            .map((f, i): [string, unknown] => [f.name, entries[i]!.sent])
            .filter(([, v]) => v !== ABSENT)
            .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
          for (const [k, v] of tricky) parts.push(`${JSON.stringify(k)}:${v}`);
          return `{${parts.join(',')}}`;
        }),
    },
    // Any object or value at all.
    { weight: 3, arbitrary: jsonTextArb(schema) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
        '{"__proto__":{"__proto__":{"isAdmin":true}}}',
        '{"constructor":null,"toString":"x","valueOf":1,"hasOwnProperty":"no"}',
        '{"__proto__":null}',
        '{"__proto__":[]}',
      ),
    },
    // Huge numbers in every field.
    {
      weight: 1,
      arbitrary: fc
        .array(hugeNumberTextArb, { minLength: names.length, maxLength: names.length })
        .map((nums) => `{${names.map((n, i) => `${JSON.stringify(n)}:${nums[i]}`).join(',')}}`),
    },
    // Deep nesting: top level, under a known field, or as a chain of unknown objects.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('array', 'object', 'field'), fc.constantFrom(...names))
        .map(([depth, shape, name]) => {
          if (shape === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
          if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
          return `{${JSON.stringify(name)}:${'['.repeat(depth)}${']'.repeat(depth)}}`;
        }),
    },
    // Too big for a submission.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...names), fc.integer({ min: SUBMISSION_LIMIT, max: SUBMISSION_LIMIT + 4096 }))
        .map(([name, size]) => `{${JSON.stringify(name)}:"${'x'.repeat(size)}"}`),
    },
    // Cut short (usually no longer JSON).
    {
      weight: 1,
      arbitrary: fc.tuple(jsonTextArb(schema), fc.nat()).map(([text, n]) => text.slice(0, n % (text.length + 1))),
    },
  );
}
