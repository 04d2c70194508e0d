/**
 * Hostile input: path ids of the wrong shape, and query parameters.
 */
import { type RestRoute, restRoutes } from '@lfk/api';
import { describe, expect, it } from 'vitest';
import { expectDocumentedError, type RequestOptions } from '@lfk/server/testing';
import {
  badIds,
  BODY_CASES,
  decodeURIComponentSafe,
  everyCase,
  expectInvalid,
  formBody,
  formId,
  hookFormId,
  key,
  keyId,
  member,
  openFormId,
  ORIGIN,
  outsider,
  outsiderKeyId,
  owner,
  t,
  unclaimed,
  useWorld,
  webhookId,
} from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Path ids and query parameters.
// ---------------------------------------------------------------------------------------------

/** Ids of the wrong shape, as they appear in a URL (already encoded where needed). */
describe('path ids of the wrong shape → 404 of that resource', () => {
  const wsRoutes = restRoutes.filter((r) => r.path.includes(':workspace_id'));

  it('covers every workspace-scoped route of the table', () => {
    expect(wsRoutes.length).toBeGreaterThanOrEqual(9);
  });

  it.each(wsRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: workspace_id → 404 workspace_not_found', async (_n, route) => {
    const ids = [
      ...badIds(member.userId),
      ['a valid-shaped unknown id', 'ws_01jd00000000000000000000aa'] as [string, string],
      ['another’s workspace', outsider.workspaceId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const url = route.path.replace(':workspace_id', id).replace(':key_id', keyId).replace(':user_id', member.userId);
      const body = route.from === 'body' ? (BODY_CASES[route.procedure]?.valid() ?? {}) : undefined;
      const res = await t.request(route.method, url, { token: owner.token, ...(body ? { body } : {}) });
      expectDocumentedError(res, 404, 'workspace_not_found', `${route.method} ${what}`);
    });
  });

  it('DELETE …/api-keys/:key_id → 404 api_key_not_found', async () => {
    const ids = [
      ...badIds(owner.workspaceId),
      ['a valid-shaped unknown id', 'key_01jd00000000000000000000aa'] as [string, string],
      ['another workspace’s key', outsiderKeyId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
      expectDocumentedError(res, 404, 'api_key_not_found', what);
    });
    const list = await t.request('GET', `/v1/workspaces/${outsider.workspaceId}/api-keys`, { token: outsider.token });
    expect(list.json.data.every((k: { status: string }) => k.status === 'active')).toBe(true);
  });

  it('DELETE …/members/:user_id → 404 member_not_found', async () => {
    const ids = [
      ...badIds(owner.workspaceId),
      ['a valid-shaped unknown id', 'usr_01jd00000000000000000000aa'] as [string, string],
      ['a user who is not a member', outsider.userId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${id}`, { token: owner.token });
      expectDocumentedError(res, 404, 'member_not_found', what);
    });
  });

  it('GET and PATCH /v1/forms/:form_id → 404 form_not_found, with a key and with a session', async () => {
    const ids = [...badIds(keyId), ['a valid-shaped unknown id', 'form_01jd00000000000000000000aa'] as [string, string]];
    await everyCase([key, owner.token], async (token) => {
      await everyCase(ids, async ([what, id]) => {
        expectDocumentedError(await t.request('GET', `/v1/forms/${id}`, { token }), 404, 'form_not_found', `GET ${what}`);
        expectDocumentedError(await t.request('PATCH', `/v1/forms/${id}`, { token, body: { name: 'x' } }), 404, 'form_not_found', `PATCH ${what}`);
      });
    });
    // Another workspace's form is not found either.
    expectDocumentedError(await t.request('GET', `/v1/forms/${formId}`, { token: outsider.token }), 404, 'form_not_found', 'outsider');
  });

  it('the other form routes → 404 form_not_found for ids of the wrong shape', async () => {
    const ids = [...badIds(keyId), ['a valid-shaped unknown id', 'form_01jd00000000000000000000aa'] as [string, string]];
    await everyCase(ids, async ([what, id]) => {
      const cases: [string, string, RequestOptions][] = [
        ['POST', `/v1/forms/${id}/resend-verification`, { token: key }],
        ['POST', `/v1/forms/${id}/claim`, { token: owner.token, body: { claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId } }],
        ['POST', `/v1/forms/${id}/submissions`, { body: { email: 'a@example.com' }, headers: { origin: ORIGIN } }],
        ['POST', `/v1/forms/${id}/submissions`, { token: key, body: { email: 'a@example.com' } }],
        ['GET', `/v1/forms/${id}/submissions`, { token: owner.token }],
        ['OPTIONS', `/v1/forms/${id}/submissions`, { headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }],
      ];
      for (const [method, url, options] of cases) {
        expectDocumentedError(await t.request(method, url, options), 404, 'form_not_found', `${method} ${url.slice(0, 60)} (${what})`);
      }
    });
  });

  it('the webhook routes → 404 webhook_not_found, or webhook_delivery_not_found, for ids of the wrong shape', async () => {
    const ids = (prefix: string, otherTypeId: string) => [
      ...badIds(otherTypeId),
      ['a valid-shaped unknown id', `${prefix}_01jd00000000000000000000aa`] as [string, string],
    ];
    const base = `/v1/forms/${hookFormId}/webhooks`;
    await everyCase(ids('wh', formId), async ([what, id]) => {
      const cases: [string, string, RequestOptions][] = [
        ['GET', `${base}/${id}`, { token: key }],
        ['PATCH', `${base}/${id}`, { token: key, body: { description: 'x' } }],
        ['DELETE', `${base}/${id}`, { token: key }],
        ['GET', `${base}/${id}/secret`, { token: owner.token }],
        ['POST', `${base}/${id}/rotate-secret`, { token: key }],
        ['POST', `${base}/${id}/test`, { token: key }],
        ['GET', `${base}/${id}/deliveries`, { token: owner.token }],
        ['POST', `${base}/${id}/deliveries/whd_01jd00000000000000000000aa/retry`, { token: owner.token }],
        ['POST', `${base}/${id}/deliveries/whd_01jd00000000000000000000aa/discard`, { token: owner.token }],
      ];
      for (const [method, url, options] of cases) {
        expectDocumentedError(await t.request(method, url, options), 404, 'webhook_not_found', `${method} ${url.slice(0, 80)} (${what})`);
      }
    });
    // Another form's endpoint is not found through this form either.
    expectDocumentedError(await t.request('GET', `/v1/forms/${formId}/webhooks/${webhookId}`, { token: key }), 404, 'webhook_not_found', 'another form');
    await everyCase(ids('whd', webhookId), async ([what, id]) => {
      for (const action of ['retry', 'discard']) {
        const res = await t.request('POST', `${base}/${webhookId}/deliveries/${id}/${action}`, { token: owner.token });
        expectDocumentedError(res, 404, 'webhook_delivery_not_found', `${action} (${what})`);
      }
    });
  });

  it('verification links of the wrong shape → a 404 page', async () => {
    await everyCase([...badIds(keyId), ['an unknown token', `lfv_${'A'.repeat(43)}`] as [string, string]], async ([what, token]) => {
      const res = await t.request('GET', `/v1/email-verifications/${token}`);
      expect(res.status, what).toBe(404);
      expect(res.headers['content-type'], what).toMatch(/^text\/html/);
      expect(res.body, what).toContain('<meta name="lfk-error-code" content="not_found">');
    });
  });

  it('a path id that is not even valid percent-encoding → 404 of that resource, in the error shape', async () => {
    const encodings = ['%ED%A0%80' /* a lone surrogate as CESU-8 */, '%ZZ', '%', '%E0%A4%A', '%C0%AF' /* overlong "/" */];
    const urls: [string, string, string][] = [];
    for (const bad of encodings) {
      urls.push(
        ['GET', `/v1/workspaces/${bad}/api-keys`, 'workspace_not_found'],
        ['DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${bad}`, 'api_key_not_found'],
        ['DELETE', `/v1/workspaces/${owner.workspaceId}/members/${bad}`, 'member_not_found'],
        ['GET', `/v1/forms/${bad}`, 'form_not_found'],
        ['PATCH', `/v1/forms/${bad}`, 'form_not_found'],
      );
    }
    await everyCase(urls, async ([method, url, code]) => {
      const token = url.startsWith('/v1/forms') ? key : owner.token;
      const res = await t.request(method, url, { token, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
      expectDocumentedError(res, 404, code, `${method} ${url}`);
    });
  });

  it('workspace_id in a form body of the wrong shape → 404 workspace_not_found', async () => {
    await everyCase([...badIds(owner.userId), ['another’s', outsider.workspaceId] as [string, string]], async ([what, id]) => {
      const workspace_id = decodeURIComponentSafe(id);
      const res = await t.request('POST', '/v1/forms', { token: owner.token, body: { ...formBody, workspace_id } });
      expectDocumentedError(res, 404, 'workspace_not_found', what);
    });
  });
});

describe('query parameters', () => {
  // The lists; a key's usage also reads its query (`?days=`, tested with the route in test/keys/), a
  // form's events are read from a position (`?after=`, tested with the route in test/webhooks/), and
  // the export reads the list's filters but is a file, not a page (test/inbox/); a file's bytes are no page either (test/files/).
  const queryRoutes = restRoutes.filter(
    (r) =>
      r.from === 'query' &&
      r.procedure !== 'apiKeys.usage' &&
      r.procedure !== 'webhooks.events' &&
      r.procedure !== 'submissions.export' &&
      r.transport !== 'file',
  );

  it('covers every list route of the table', () => {
    expect(queryRoutes.map((r) => r.procedure).sort()).toEqual(
      [
        'apiKeys.list',
        'auditEvents.list',
        'drafts.list',
        'forms.list',
        'invitations.list',
        'members.list',
        'projects.list',
        'submissions.list',
        'webhooks.deliveries',
        'workspaces.list',
      ].sort(),
    );
  });

  const urlOf = (route: RestRoute) =>
    route.path
      .replace(':workspace_id', owner.workspaceId)
      .replace(':form_id', route.path.includes(':webhook_id') ? hookFormId : openFormId)
      .replace(':webhook_id', webhookId);

  it.each(queryRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: ?limit= out of range or not a number → 400', async (_n, route) => {
    await everyCase(['0', '101', '-1', 'abc', '1.5', '1e3', 'Infinity', 'NaN', '%00', '99999999999999999999', '1&limit=2'], async (limit) => {
      const res = await t.request('GET', `${urlOf(route)}?limit=${limit}`, { token: owner.token });
      expectInvalid(res, 'limit', `limit=${limit}`);
    });
    await everyCase(['1', '100'], async (limit) => {
      const res = await t.request('GET', `${urlOf(route)}?limit=${limit}`, { token: owner.token });
      expect(res.status, `limit=${limit} ${res.body}`).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(Number(limit));
    });
  });

  it.each(queryRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: a bogus ?cursor= → 400', async (_n, route) => {
    const cursors = [
      'bogus',
      'x'.repeat(5000),
      encodeURIComponent("' OR 1=1 --"),
      '%00',
      route.procedure === 'forms.list' ? keyId : formId, // a real id, of the wrong type for this list
      'abc&cursor=def',
    ];
    await everyCase(cursors, async (cursor) => {
      const res = await t.request('GET', `${urlOf(route)}?cursor=${cursor}`, { token: owner.token });
      expectInvalid(res, 'cursor', `cursor=${cursor.slice(0, 40)}`);
    });
    // A real cursor of this list works.
    const first = await t.request('GET', `${urlOf(route)}?limit=1`, { token: owner.token });
    expect(first.status, first.body).toBe(200);
    if (first.json.next_cursor) {
      const next = await t.request('GET', `${urlOf(route)}?limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`, {
        token: owner.token,
      });
      expect(next.status, next.body).toBe(200);
      expect(next.json.data[0]).not.toEqual(first.json.data[0]);
    }
  });

  it('unknown query parameters are ignored on lists, and a query string on a non-list route changes nothing', async () => {
    const res = await t.request('GET', '/v1/workspaces?foo=bar&__proto__[x]=1', { token: owner.token });
    expect(res.status, res.body).toBe(200);
    const form = await t.request('GET', `/v1/forms/${formId}?form_id=form_01jd00000000000000000000aa`, { token: key });
    expect(form.status, form.body).toBe(200);
    expect(form.json.id).toBe(formId);
  });
});
