/**
 * Issue 50, item 18: what a generated client types from the document. File parts of a multipart
 * submission are bytes, not strings; passkey options are WebAuthn's shapes, not `{}`; and an
 * operation documents only the errors it can answer (members.leave never answers
 * `two_factor_required`: its meta opens it to a member without the required factor).
 */
import { restRoutes } from '@lfk/api';
import { expectError, useTestServer } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { Conformance } from './conformance.ts';

const t = useTestServer();
let doc: Record<string, any>;
let check: Conformance;

beforeAll(async () => {
  doc = (await t.request('GET', '/v1/openapi.json')).json;
  check = new Conformance(doc);
});

const resolve = (node: any): any =>
  typeof node?.$ref === 'string'
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, key: string) => at[key], doc),
      )
    : node;
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The error codes an operation documents for `status` (its description names each). */
function documentedCodes(method: string, path: string, status: number): string[] {
  const response = resolve(doc.paths[openApiPath(path)][method.toLowerCase()].responses[String(status)]);
  return response ? [...String(response.description).matchAll(/`(\w+)`/g)].map((m) => m[1]!) : [];
}

describe('multipart submissions', () => {
  it('say that a part may be a file: bytes (format binary, contentMediaType), one or several', () => {
    const schema = resolve(doc.paths['/v1/forms/{form_id}/submissions'].post.requestBody.content['multipart/form-data'].schema);
    const kinds = schema.additionalProperties.anyOf;
    expect(kinds).toContainEqual(expect.objectContaining({ type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' }));
    expect(kinds).toContainEqual(expect.objectContaining({ type: 'array', items: expect.objectContaining({ format: 'binary' }) }));
    expect(kinds).toContainEqual(expect.objectContaining({ type: 'string', description: 'A text value.' }));
  });
});

describe('passkey options', () => {
  it("are WebAuthn's JSON shapes, everywhere they are given", () => {
    const creation = resolve(doc.components.schemas.PasskeyRegistrationOptions.properties.options);
    expect(creation.required).toEqual(expect.arrayContaining(['challenge', 'rp', 'user', 'pubKeyCredParams']));
    expect(creation.properties.pubKeyCredParams.items.properties.alg.type).toBe('integer');
    const request = resolve(doc.components.schemas.PasskeyAssertionOptions.properties.options);
    expect(request.required).toEqual(['challenge']);
    expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(['allowCredentials', 'rpId', 'userVerification', 'timeout']));
    // The second factor's challenge carries the same shape.
    const passkeyOptions = doc.components.schemas.Error.properties.error.properties.passkey_options;
    expect(passkeyOptions.$ref).toBe('#/components/schemas/PublicKeyCredentialRequestOptionsJSON');
  });

  it('as the server gives them, conform to those shapes', async () => {
    const owner = await t.signup();
    const registration = await t.request('POST', '/v1/auth/two-factor/passkeys/options', { token: owner.token });
    expect(registration.status, registration.body).toBe(200);
    check.expectConforms('POST', '/v1/auth/two-factor/passkeys/options', registration);
    expect(registration.json.options.pubKeyCredParams.length).toBeGreaterThan(0);
    const signIn = await t.request('POST', '/v1/auth/login/passkey/options', { body: {} });
    expect(signIn.status, signIn.body).toBe(200);
    check.expectConforms('POST', '/v1/auth/login/passkey/options', signIn);
  });
});

describe('documented errors are answered errors', () => {
  it('members.leave does not document two_factor_required, and a member without the required factor may leave', async () => {
    const leave = restRoutes.find((r) => r.procedure === 'members.leave')!;
    const list = restRoutes.find((r) => r.procedure === 'members.list')!;
    expect(documentedCodes(leave.method, leave.path, 403)).not.toContain('two_factor_required');
    expect(documentedCodes(list.method, list.path, 403)).toContain('two_factor_required');

    const { owner, member } = await t.signupTeam();
    await t.enableAuthenticator(owner.token);
    const required = await t.request('PATCH', `/v1/workspaces/${owner.workspaceId}`, { token: owner.token, body: { require_two_factor: true } });
    expect(required.status, required.body).toBe(204);
    expectError(await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: member.token }), 403, 'two_factor_required');
    const left = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/leave`, { token: member.token });
    expect(left.status, left.body).toBe(204);
  });
});
