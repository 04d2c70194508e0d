/**
 * Hostile input, bodies: malformed JSON, non-objects, other content types, oversized and empty bodies,
 * unknown and prototype-polluting fields, on every body route of the REST table and the submission route.
 */
import { restRoutes } from '@lfk/api';
import { UNKNOWN_IDS, urlOf } from '../path-params.ts';
import { describe, expect, it } from 'vitest';
import { expectDocumentedError } from '@lfk/server/testing';
import {
  BAD_TEXT,
  BODY_CASES,
  bodyRoutes,
  everyCase,
  expectInvalid,
  jsonOfSize,
  MALFORMED_JSON,
  MiB,
  NON_OBJECT_JSON,
  openFormId,
  opts,
  ORIGIN,
  OTHER_CONTENT_TYPES,
  t,
  useWorld,
} from './fixtures.ts';

useWorld();

describe('routes that take nothing but their path', () => {
  const pathOnly = restRoutes.filter((r) => r.from === 'none' && r.method !== 'GET' && !r.transport);

  it('are the routes real clients sent fields to (logout, approve, deny, resend-verification, member and key removal…)', () => {
    expect(pathOnly.map((r) => r.procedure)).toEqual(
      expect.arrayContaining(['auth.logout', 'deviceLogins.approve', 'deviceLogins.deny', 'forms.resendVerification', 'members.remove', 'apiKeys.revoke']),
    );
  });

  it('refuse a body with a field (400 naming it), and a body that is not an object; an empty object is no field', async () => {
    await everyCase(pathOnly, async (route) => {
      // Ids that name nothing: the refusal comes before any of them is looked up.
      const url = urlOf(route.path, UNKNOWN_IDS);
      const what = `${route.method} ${route.path}`;
      // A person of its own: the empty body below is taken, and logout or revoke-others would end a shared session.
      const { token } = await t.signup();
      const res = await t.request(route.method, url, { token, body: { notify_email: 'new@example.com' } });
      const error = expectDocumentedError(res, 400, 'invalid_request', what);
      expect(error.details, what).toEqual([{ path: 'notify_email', message: 'Not a field of this request: it takes nothing but its path.' }]);
      expectDocumentedError(await t.request(route.method, url, { token, raw: '[1]' }), 400, 'invalid_request', `${what} array`);
      expect((await t.request(route.method, url, { token, body: {} })).status, `${what} {}`).not.toBe(400);
    });
  });
});

describe('every body route of the REST table', () => {
  it('has a case in this file (no body route goes untested)', () => {
    expect(bodyRoutes.length).toBeGreaterThan(0);
    for (const route of bodyRoutes) expect(BODY_CASES[route.procedure], route.procedure).toBeDefined();
  });

  /** Routes whose one string is a secret token: what they answer for a token that names nothing. */
  const SECRET_ONLY: Partial<Record<string, { field: string; prefix: string; notFound: string }>> = {
    'forms.claim': { field: 'claim_token', prefix: 'lfc_', notFound: 'form_not_found' },
    'deviceLogins.token': { field: 'device_code', prefix: 'lfd_', notFound: 'device_login_not_found' },
  };

  describe.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
    const c = () => BODY_CASES[route.procedure]!;

    it('malformed JSON → 400 invalid_json', async () => {
      await everyCase(MALFORMED_JSON, async ([what, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_json', what);
      });
    });

    it('JSON that is not an object → 400 invalid_request', async () => {
      await everyCase(NON_OBJECT_JSON, async ([what, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_request', what);
      });
    });

    it('other content types → 415 unsupported_media_type', async () => {
      await everyCase(OTHER_CONTENT_TYPES, async ([contentType, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw, headers: { 'content-type': contentType } }));
        expectDocumentedError(res, 415, 'unsupported_media_type', contentType);
      });
    });

    it('a body just over 1 MiB → 413 payload_too_large; exactly 1 MiB is read', async () => {
      const over = await t.request(route.method, c().url(), opts(c(), { raw: jsonOfSize(MiB + 1) }));
      expectDocumentedError(over, 413, 'payload_too_large', '1 MiB + 1');
      const farOver = await t.request(route.method, c().url(), opts(c(), { raw: Buffer.alloc(5 * MiB, 0x20) }));
      expectDocumentedError(farOver, 413, 'payload_too_large', '5 MiB');
      // At the limit the body is parsed and validated (a 1 MiB name is too long, or not a field).
      const at = await t.request(route.method, c().url(), opts(c(), { raw: jsonOfSize(MiB) }));
      expectDocumentedError(at, 400, 'invalid_request', 'exactly 1 MiB');
    });

    it('an empty body with content-type json is no input: a 400 invalid_request, or success when every field is optional', async () => {
      await everyCase(['', '   \n'], async (raw) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        if (c().emptyOk) {
          expect(res.status, res.body).toBe(route.status);
        } else {
          expectDocumentedError(res, 400, 'invalid_request', `empty body ${JSON.stringify(raw)}`);
        }
      });
    });

    it('an unknown field → 400 invalid_request (strict objects)', async () => {
      const res = await t.request(route.method, c().url(), opts(c(), { body: c().unknown() }));
      const error = expectDocumentedError(res, 400, 'invalid_request', 'unknown field');
      expect(error.details?.length, res.body).toBeGreaterThan(0);
    });

    it('prototype-polluting keys are unknown fields, not merged', async () => {
      for (const raw of [
        `{"__proto__":{"admin":true},${JSON.stringify(c().valid()).slice(1)}`,
        `{"constructor":{"prototype":{"admin":true}},${JSON.stringify(c().valid()).slice(1)}`,
      ]) {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_request', raw.slice(0, 40));
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('NUL, control characters and lone surrogates in its text field → 400 (escaped JSON still reaches validation)', async () => {
      const field = c().textField;
      const secret = SECRET_ONLY[route.procedure];
      if (!field && secret) {
        // No free text here, and no email either: a lone surrogate in the secret is a secret that names nothing.
        const res = await t.request(route.method, c().url(), opts(c(), { body: { ...c().valid(), [secret.field]: `${secret.prefix}\ud800` } }));
        expectDocumentedError(res, 404, secret.notFound, `lone surrogate in ${secret.field}`);
        return;
      }
      const anyCharacters = c().anyCharacters;
      if (!field && anyCharacters) {
        // Any characters go (a password is opaque), but not half of one: it would be hashed as U+FFFD.
        const raw = `${JSON.stringify(c().valid()).slice(0, -1)},"${anyCharacters}":"long enough x\\ud800"}`;
        expectInvalid(await t.request(route.method, c().url(), opts(c(), { raw })), anyCharacters, 'lone surrogate');
        return;
      }
      const encoded = c().encoded;
      if (!field && encoded) {
        // The bad values that are not themselves of the encoding (an empty one is).
        await everyCase(
          BAD_TEXT.filter((bad) => !/^[A-Za-z0-9_-]*$/.test(bad)),
          async (bad) => {
            expectInvalid(await t.request(route.method, c().url(), opts(c(), { body: encoded.body(`AAAA${bad}`) })), encoded.path, JSON.stringify(bad));
          },
        );
        return;
      }
      const noText = c().noText;
      if (!field && noText) {
        // No free text here, nor an email: an id with a lone surrogate is an id that names nothing.
        const res = await t.request(route.method, c().url(), opts(c(), { raw: JSON.stringify(noText.body()) }));
        expect(res.status, res.body).toBe(route.status);
        expect(res.json).toEqual(noText.answer);
        return;
      }
      if (!field) {
        // No free text here: a lone surrogate in the email is still a validation error.
        const raw = JSON.stringify({ ...c().valid(), email: 'a\ud800@example.com' });
        expectInvalid(await t.request(route.method, c().url(), opts(c(), { raw })), 'email', 'lone surrogate in email');
        return;
      }
      await everyCase(BAD_TEXT, async (bad) => {
        const body = { ...c().valid(), [field]: bad };
        const res = await t.request(route.method, c().url(), opts(c(), { body }));
        expectInvalid(res, field, JSON.stringify(bad));
      });
      // The escape as raw JSON text: valid JSON, so it is validation that refuses it.
      const rest: Record<string, unknown> = { ...c().valid() };
      delete rest[field];
      const raw = `${JSON.stringify(rest).slice(0, -1)}${Object.keys(rest).length ? ',' : ''}"${field}":"x\\ud800y"}`;
      expectInvalid(await t.request(route.method, c().url(), opts(c(), { raw })), field, 'raw \\ud800 escape');
    });
  });
});

describe('the submission route', () => {
  const url = () => `/v1/forms/${openFormId}/submissions`;
  const headers = { origin: ORIGIN };

  it('malformed JSON → 400 invalid_json', async () => {
    await everyCase(MALFORMED_JSON, async ([what, raw]) => {
      expectDocumentedError(await t.request('POST', url(), { raw, headers }), 400, 'invalid_json', what);
    });
  });

  it('JSON that is not an object → 400 invalid_request', async () => {
    await everyCase(
      NON_OBJECT_JSON.filter(([what]) => what !== 'null'),
      async ([what, raw]) => {
        expectDocumentedError(await t.request('POST', url(), { raw, headers }), 400, 'invalid_request', what);
      },
    );
  });

  it('content types other than JSON and form posts (urlencoded or multipart) → 415 unsupported_media_type', async () => {
    const others = OTHER_CONTENT_TYPES.filter(([type]) => type !== 'application/x-www-form-urlencoded' && !type.startsWith('multipart/form-data'));
    await everyCase(others, async ([contentType, raw]) => {
      const res = await t.request('POST', url(), { raw, headers: { ...headers, 'content-type': contentType } });
      expectDocumentedError(res, 415, 'unsupported_media_type', contentType);
    });
  });

  it('a body over 64 KiB → 413 payload_too_large, as JSON and as a form post', async () => {
    const message = 'a'.repeat(64 * 1024);
    expectDocumentedError(await t.request('POST', url(), { body: { message }, headers }), 413, 'payload_too_large', 'json');
    const form = await t.request('POST', url(), {
      raw: `message=${message}`,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectDocumentedError(form, 413, 'payload_too_large', 'form post');
  });

  it('prototype-polluting keys are unknown fields of the form (422), and pollute nothing', async () => {
    for (const raw of ['{"__proto__":{"admin":true},"email":"a@example.com"}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const res = await t.request('POST', url(), { raw, headers });
      const error = expectDocumentedError(res, 422, 'validation_failed', raw);
      expect(error.details?.map((d) => d.path)).toContain(raw.includes('__proto__') ? '__proto__' : 'constructor');
    }
    const form = await t.request('POST', url(), {
      raw: '__proto__=x&constructor=y&email=a%40example.com',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const error = expectDocumentedError(form, 422, 'validation_failed', 'form post');
    expect(error.details?.map((d) => d.path).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('NUL and lone surrogates in a value → 422 naming the field; other unicode is kept', async () => {
    await everyCase(['a\u0000b', '\ud800', 'x\ud83d'], async (bad) => {
      const res = await t.request('POST', url(), { body: { message: bad }, headers });
      const error = expectDocumentedError(res, 422, 'validation_failed', JSON.stringify(bad));
      expect(error.details).toEqual([{ path: 'message', message: expect.any(String) }]);
    });
    const ok = await t.request('POST', url(), { body: { message: 'tab\tnew\nline ✓ 🎉 \u202e' }, headers });
    expect(ok.status, ok.body).toBe(201);
  });
});
