/**
 * Hostile input (issue 36): 10,000 characters in every string a body sends. The strings are found
 * by walking each body route's input schema in the REST table, so a new field cannot be missed; each
 * documented limit answers 400 invalid_request naming the field (an id names nothing: the 404 of its
 * resource, as in a path).
 */
import { type RestRoute, restRoutes } from '@lfk/api';
import { expectDocumentedError, reporterKeys, signed, useTestServer } from '@lfk/server/testing';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BODY_CASES, type BodyCase, everyCase, expectInvalid, FAKE_ASSERTION, FAKE_REGISTRATION, key, keyId, owner, t, useWorld } from './fixtures.ts';

useWorld();

const LONG = 'x'.repeat(10_000);

/**
 * The paths of every string in a schema (`schema.N.label`: N for an array's items), through the
 * wrappers zod puts around a field (optional, nullable, default, pipe, union).
 */
function stringLeaves(schema: z.ZodType, path = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const at = (part: string) => (path ? `${path}.${part}` : part);
  switch (def.type) {
    case 'string':
      return [path];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([name, field]) => stringLeaves(field, at(name)));
    case 'array':
      return stringLeaves(def.element as z.ZodType, at('N'));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return stringLeaves(def.innerType as z.ZodType, path);
    case 'pipe':
      return stringLeaves(def.in as z.ZodType, path);
    case 'union':
      return [...new Set((def.options as z.ZodType[]).flatMap((option) => stringLeaves(option, path)))];
    default:
      return [];
  }
}

/** The route's own path ids are not in its body. */
const pathParams = (route: RestRoute) => new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!));

/** A string that is not a top-level field, nor a list of strings, needs a body around it. */
const NESTED: Record<string, (value: string) => Record<string, unknown>> = {
  'schema.N.name': (v) => ({ schema: [{ name: v, type: 'text' }] }),
  'schema.N.label': (v) => ({ schema: [{ name: 'a', type: 'text', label: v }] }),
  'schema.N.options.N': (v) => ({ schema: [{ name: 'a', type: 'select', options: [v] }] }),
  'schema.N.accept.N': (v) => ({ schema: [{ name: 'a', type: 'file', accept: [v] }] }),
  'spam.honeypot': (v) => ({ spam: { honeypot: v } }),
  'passkey.id': (v) => ({ passkey: { ...FAKE_ASSERTION, id: v } }),
  'passkey.rawId': (v) => ({ passkey: { ...FAKE_ASSERTION, rawId: v } }),
  'passkey.response.clientDataJSON': (v) => ({ passkey: { ...FAKE_ASSERTION, response: { ...FAKE_ASSERTION.response, clientDataJSON: v } } }),
  'passkey.response.authenticatorData': (v) => ({ passkey: { ...FAKE_ASSERTION, response: { ...FAKE_ASSERTION.response, authenticatorData: v } } }),
  'passkey.response.signature': (v) => ({ passkey: { ...FAKE_ASSERTION, response: { ...FAKE_ASSERTION.response, signature: v } } }),
  'passkey.response.userHandle': (v) => ({ passkey: { ...FAKE_ASSERTION, response: { ...FAKE_ASSERTION.response, userHandle: v } } }),
  'credential.id': (v) => ({ credential: { ...FAKE_REGISTRATION, id: v } }),
  'credential.rawId': (v) => ({ credential: { ...FAKE_REGISTRATION, rawId: v } }),
  'credential.response.clientDataJSON': (v) => ({ credential: { ...FAKE_REGISTRATION, response: { ...FAKE_REGISTRATION.response, clientDataJSON: v } } }),
  'credential.response.attestationObject': (v) => ({ credential: { ...FAKE_REGISTRATION, response: { ...FAKE_REGISTRATION.response, attestationObject: v } } }),
  'credential.response.transports.N': (v) => ({ credential: { ...FAKE_REGISTRATION, response: { ...FAKE_REGISTRATION.response, transports: [v] } } }),
  'spam.captcha.site_key': (v) => ({ spam: { captcha: { provider: 'turnstile', site_key: v, secret: 'secret' } } }),
  'spam.captcha.secret': (v) => ({ spam: { captcha: { provider: 'turnstile', site_key: 'site', secret: v } } }),
  'auto_reply.email_field': (v) => ({ auto_reply: { email_field: v, subject: 'Thanks', text: 'Got it.' } }),
  'auto_reply.subject': (v) => ({ auto_reply: { email_field: 'email', subject: v, text: 'Got it.' } }),
  'auto_reply.text': (v) => ({ auto_reply: { email_field: 'email', subject: 'Thanks', text: v } }),
};

/** The body with `value` at `leaf`, and the path an error names for it. */
function placed(valid: Record<string, unknown>, leaf: string, value: string): { body: Record<string, unknown>; path: string } {
  // Each list's `N` segment is its first item (a field may end in N: `clientDataJSON`).
  const path = leaf
    .split('.')
    .map((segment) => (segment === 'N' ? '0' : segment))
    .join('.');
  const nested = NESTED[leaf];
  if (nested) return { body: { ...valid, ...nested(value) }, path };
  const [field, item, ...deeper] = leaf.split('.');
  if (item === undefined) return { body: { ...valid, [field!]: value }, path };
  if (item === 'N' && deeper.length === 0) return { body: { ...valid, [field!]: [value] }, path };
  throw new Error(`${leaf}: a nested string needs a body in NESTED`);
}

/** Body routes the shared cases leave out, with what they need here (each refusal comes before anything is done). */
const MORE_CASES: Partial<Record<RestRoute['procedure'], Pick<BodyCase, 'url' | 'token' | 'valid'>>> = {
  // A refused body rolls nothing.
  'apiKeys.roll': { url: () => `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}/roll`, token: () => owner.token, valid: () => ({}) },
  // The JSON post of a reset link: a link that names nothing, but the body is judged first.
  'passwordResets.reset': {
    url: () => `/v1/auth/password-resets/lfr_${'a'.repeat(43)}`,
    token: () => undefined,
    valid: () => ({ password: 'long enough password' }),
  },
};

/** An id in a body that names nothing is answered as one in a path: the 404 of its resource. */
const NAMES_NOTHING: Record<string, string> = { workspace_id: 'workspace_not_found', project_id: 'project_not_found' };

/** Routes whose body is not a fixed shape of fields: submissions follow each form's schema, leak reports are signed. */
// A visitor's values have sections of their own: submissions' here, drafts' in test/forms/drafts.test.ts.
const OWN_SECTION = new Set<RestRoute['procedure']>(['submissions.create', 'secretScanning.report', 'drafts.start', 'drafts.save', 'drafts.email']);

const bodyRoutes = restRoutes.filter((r) => r.from === 'body' && !OWN_SECTION.has(r.procedure));
const cases = bodyRoutes.flatMap((route) => {
  const params = pathParams(route);
  return stringLeaves(route.input!)
    .filter((leaf) => !params.has(leaf))
    .map((leaf) => ({ route, leaf }));
});

describe('10,000 characters in every string of every body', () => {
  it('every body route has a case, and the walk finds the strings people type', () => {
    for (const route of bodyRoutes) expect(BODY_CASES[route.procedure] ?? MORE_CASES[route.procedure], route.procedure).toBeDefined();
    const found = new Set(cases.map((c) => `${c.route.procedure} ${c.leaf}`));
    for (const known of [
      'deviceLogins.start device_name',
      'webhooks.create description',
      'forms.create schema.N.options.N',
      'apiKeys.update allowed_ips.N',
      'auth.signup name',
    ]) {
      expect(found, known).toContain(known);
    }
  });

  it('→ 400 invalid_request naming the field (an id: the 404 of its resource), on every route', async () => {
    await everyCase(cases, async ({ route, leaf }) => {
      const c = (BODY_CASES[route.procedure] ?? MORE_CASES[route.procedure])!;
      const { body, path } = placed(c.valid(), leaf, LONG);
      const token = c.token();
      const res = await t.request(route.method, c.url(), { ...(token ? { token } : {}), body });
      const what = `${route.method} ${route.path} ${leaf}`;
      if (NAMES_NOTHING[leaf]) expectDocumentedError(res, 404, NAMES_NOTHING[leaf], what);
      else expectInvalid(res, path, what);
    });
  });
});

describe('10,000 characters in a submission value', () => {
  it('each field type takes what its documented limit allows, and refuses the rest with 422 naming the field', async () => {
    const types = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select'] as const;
    const schema = types.map((type) => ({ name: type, type, ...(type === 'select' ? { options: ['a'] } : {}) }));
    const form = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Long values', schema } });
    expect(form.status, form.body).toBe(201);
    // Text takes 10,000 characters, a textarea 65,536; every other type has a shape 10,000 characters cannot fit.
    const takes = new Set(['text', 'textarea']);
    await everyCase(types, async (type) => {
      const res = await t.request('POST', `/v1/forms/${form.json.id}/submissions`, { token: key, body: { [type]: LONG } });
      if (takes.has(type)) {
        expect(res.status, `${type} → ${res.body.slice(0, 300)}`).toBe(201);
      } else {
        expect(res.status, `${type} → ${res.body.slice(0, 300)}`).toBe(422);
        expect(res.json.error.details.map((d: { path: string }) => d.path)).toEqual([type]);
      }
    });
    const over = await t.request('POST', `/v1/forms/${form.json.id}/submissions`, { token: key, body: { text: `${LONG}x` } });
    expect(over.status, over.body.slice(0, 300)).toBe(422);
    expect(over.json.error.details).toEqual([{ path: 'text', message: 'Must be at most 10000 characters.' }]);
  });
});

describe('10,000 characters in a signed leak report', () => {
  const keys = reporterKeys();
  const s = useTestServer({ LFK_SECRET_SCANNING_KEYS: keys.env });
  const route = restRoutes.find((r) => r.procedure === 'secretScanning.report')!;
  const found = { token: 'lfk_notakeyatall', type: 'lfk_api_key', url: 'https://github.com/o/r/blob/main/x', source: 'content' };

  it('each of its strings → 400 invalid_request naming it', async () => {
    const leaves = stringLeaves(route.input!);
    expect(leaves.sort()).toEqual(['N.source', 'N.token', 'N.type', 'N.url']);
    await everyCase(leaves, async (leaf) => {
      const field = leaf.slice('N.'.length);
      const body = JSON.stringify([{ ...found, [field]: LONG }]);
      const res = await s.request('POST', route.path, { raw: body, headers: signed(body, keys) });
      expectInvalid(res, `0.${field}`, leaf);
    });
  });
});
