/**
 * Authorization matrix, the one loop: every REST route × every kind of caller.
 */
import { restRoutes } from '@lfk/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { Conformance } from '../openapi/conformance.ts';
import { CALLERS, errorCodeOf, MATRIX, routeKey, t, tokenOf, urlOf, useWorld, w } from './matrix.ts';

useWorld();
/** Every cell's answer is also checked against the OpenAPI document: status, media type, body, headers. */
let openApi: Conformance;
beforeAll(async () => {
  openApi = new Conformance((await t.request('GET', '/v1/openapi.json')).json);
});

describe('authorization matrix', () => {
  it('has exactly one row per route of restRoutes', () => {
    const table = MATRIX.map((row) => row.route);
    expect(new Set(table).size, 'duplicate rows').toBe(table.length);
    expect([...table].sort()).toEqual(restRoutes.map(routeKey).sort());
  });

  const cells = MATRIX.flatMap((row) => CALLERS.map((caller) => ({ route: row.route, caller, expected: row.expect[caller], row })));

  it.each(cells)('$route · $caller → $expected', async ({ row, caller, expected }) => {
    const [method, path] = row.route.split(' ') as [string, string];
    const prepared = (await row.prepare?.(w, caller)) ?? {};
    const url = urlOf(path, { workspace_id: w.ws, ...prepared.params });
    const token = prepared.token ?? tokenOf(w, caller);
    try {
      const res = await t.request(method, url, {
        ...(token !== undefined ? { token } : {}),
        ...(prepared.body !== undefined ? { body: prepared.body } : {}),
      });
      openApi.expectConforms(method, path.replace(/:(\w+)/g, '{$1}'), res);
      if (typeof expected === 'number') {
        expect(res.status, res.body).toBe(expected);
        row.success(res, { w, caller, prepared });
      } else {
        const [status, code] = expected.split(' ');
        expect({ status: res.status, code: errorCodeOf(res) }, res.body).toEqual({ status: Number(status), code });
      }
    } finally {
      // Keys created by a cell never count against W's 10-key limit in a later cell.
      await t.sql('update api_keys set revoked_at = ? where workspace_id = ? and revoked_at is null and id <> ?', [new Date().toISOString(), w.ws, w.key.id]);
    }
  });
});
