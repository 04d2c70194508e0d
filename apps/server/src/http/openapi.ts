import { ERROR_CODES, type RestRoute, restRoutes, statusOf } from '@lfk/api';
import { z } from 'zod';
import { BUTTON_BODY_LIMIT } from './email-verification.ts';

const ACCESS_NOTES: Record<RestRoute['access'], string> = {
  public: 'No credentials needed.',
  session: 'A signed-in session (`Authorization: Bearer lfs_…` or the `lfk_session` cookie). API keys get 403 `session_required`.',
  member: 'A session of a member of the workspace.',
  owner: 'A session of an owner of the workspace. API keys get 403 `session_required`.',
  forms_scope: 'A workspace API key (`Authorization: Bearer lfk_…`) or a session of a member of the workspace.',
  forms_scope_or_anonymous:
    'A workspace API key (`Authorization: Bearer lfk_…`) or a session of a member of the workspace; ' +
    'without credentials, the form is made unclaimed.',
};

const SUBMISSION_NOTES =
  'A `browser`-mode form takes submissions whose `Origin` is on its `allowed_origins` (CORS preflight is answered ' +
  'for those origins only), or server-side calls with a key of its workspace; an `api_key`-mode form needs such a ' +
  'key. The body is the flat object of field values, as JSON or as an HTML form post; a form post that accepts ' +
  '`text/html` is answered 303 to the `redirect_url`, or a thank-you page. At most 64 KiB. ' +
  'Values that do not satisfy the form get 422 `validation_failed` with one detail per field.';

const LEAK_REPORT_NOTES =
  "GitHub's secret scanning partner format: a JSON array of `{ token, type, url, source }`, signed over the raw body " +
  'with ECDSA P-256 / SHA-256 by a key trusted in `LFK_SECRET_SCANNING_KEYS`. Each lfk key that still works is ' +
  'revoked at once (`revoked_reason: "leaked"`), its workspace\'s owners are emailed where it was found, and an ' +
  '`api_key.leaked` audit event names the reporter. The answer labels each token by its sha256: `true_positive` ' +
  'for a key lfk issued, `false_positive` otherwise. An unsigned or badly signed report is 401 `invalid_signature` ' +
  'and changes nothing.';

/** The two sides of a verification link: opening it changes nothing, its button verifies. */
const HTML_PAGES: Record<'GET' | 'POST', { description: string; ok: string }> = {
  GET: {
    description:
      'Opened from an email, and by link checkers (HEAD) and mail scanners: shows the address and the form, with a ' +
      '"Verify" button that posts to this link. GET and HEAD change nothing. 404 when the link is not valid ' +
      '(used, replaced by a newer one, or older than 24 hours).',
    ok: 'A page with a "Verify" button; nothing changed',
  },
  POST: {
    description:
      'The page\'s "Verify" button, a plain HTML form post (its body, if any, is ignored): marks the address verified. ' +
      'The link works once. No session is needed and no CSRF check applies: the token the address was sent is the ' +
      'only credential. 404 when the link is not valid.',
    ok: 'The address is verified',
  },
};

const errorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
        request_id: { type: 'string' },
      },
    },
  },
};

const toJson = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

function securityOf(route: RestRoute): unknown[] {
  if (route.transport === 'submission') return [{}, { apiKey: [] }];
  if (route.access === 'public') return [];
  if (route.access === 'forms_scope_or_anonymous') return [{}, { apiKey: [] }, { session: [] }];
  return route.access === 'forms_scope' ? [{ apiKey: [] }, { session: [] }] : [{ session: [] }];
}

/** OpenAPI 3.1, generated from the route table and the very zod schemas the procedures use. */
export function buildOpenApi(publicUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    const input = route.input ? (toJson(route.input, 'input') as { properties?: Record<string, unknown>; required?: string[] }) : null;
    const parameters: unknown[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    let requestBody: unknown;
    if (input && route.from === 'query') {
      for (const [name, schema] of Object.entries(input.properties ?? {})) {
        if (!pathParams.includes(name)) parameters.push({ name, in: 'query', required: false, schema });
      }
    }
    if (input && route.transport === 'signed_report') {
      requestBody = { required: true, content: { 'application/json': { schema: input } } };
      parameters.push(
        { name: 'Github-Public-Key-Identifier', in: 'header', required: true, schema: { type: 'string' }, description: 'Which trusted key signed the report (`LFK_SECRET_SCANNING_KEYS`).' },
        { name: 'Github-Public-Key-Signature', in: 'header', required: true, schema: { type: 'string' }, description: 'Base64 DER ECDSA P-256 / SHA-256 signature of the raw body.' },
      );
    } else if (input && route.transport === 'submission') {
      requestBody = {
        required: true,
        content: { 'application/json': { schema: input }, 'application/x-www-form-urlencoded': { schema: input } },
      };
    } else if (input && route.from === 'body') {
      const properties = Object.fromEntries(Object.entries(input.properties ?? {}).filter(([k]) => !pathParams.includes(k)));
      const required = (input.required ?? []).filter((k) => !pathParams.includes(k));
      requestBody = {
        required: required.length > 0,
        content: { 'application/json': { schema: { ...input, properties, required } } },
      };
    }
    const errorStatuses = [...new Set(ERROR_CODES.map(statusOf))];
    const responses: Record<string, unknown> = {
      [route.status]: route.output
        ? { description: 'Success', content: { 'application/json': { schema: toJson(route.output, 'output') } } }
        : { description: 'Success, no content' },
    };
    for (const status of errorStatuses) {
      responses[status] = { description: 'Error', content: { 'application/json': { schema: errorBody } } };
    }
    if (route.transport === 'submission') {
      responses[303] = { description: 'An HTML form post, sent on to the form\'s `redirect_url`' };
    }
    const linkPage = route.transport === 'html' ? HTML_PAGES[route.method as 'GET' | 'POST'] : undefined;
    if (linkPage) {
      const page = { content: { 'text/html': { schema: { type: 'string' } } } };
      for (const key of Object.keys(responses)) delete responses[key];
      responses[200] = { description: linkPage.ok, ...page };
      responses[404] = { description: 'The link is not valid (used, replaced or expired)', ...page };
      if (route.method === 'POST') {
        requestBody = { required: false, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } };
        responses[413] = { description: `A body over ${BUTTON_BODY_LIMIT} bytes`, ...page };
        responses[415] = { description: 'A body that is not a form post', ...page };
      }
    }
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      operationId: route.procedure,
      summary: route.summary,
      description:
        linkPage?.description ??
        (route.transport === 'submission' ? SUBMISSION_NOTES : route.transport === 'signed_report' ? LEAK_REPORT_NOTES : ACCESS_NOTES[route.access]),
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses,
      security: securityOf(route),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'lfk', version: '1', description: 'A forms backend with workspace API keys.' },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A workspace API key, `lfk_…`' },
        session: { type: 'http', scheme: 'bearer', description: 'A session token, `lfs_…` (or the `lfk_session` cookie)' },
      },
    },
    paths,
  };
}
