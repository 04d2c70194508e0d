import { ERROR_CODES, type RestRoute, restRoutes, statusOf } from '@lfk/api';
import { z } from 'zod';

const ACCESS_NOTES: Record<RestRoute['access'], string> = {
  public: 'No credentials needed.',
  session: 'A signed-in session (`Authorization: Bearer lfs_…` or the `lfk_session` cookie). API keys get 403 `session_required`.',
  member: 'A session of a member of the workspace.',
  owner: 'A session of an owner of the workspace. API keys get 403 `session_required`.',
  forms_scope: 'A workspace API key (`Authorization: Bearer lfk_…`) or a session of a member of the workspace.',
};

const TRANSPORT_NOTES: Record<NonNullable<RestRoute['transport']>, string> = {
  submission:
    'A `browser`-mode form takes submissions whose `Origin` is on its `allowed_origins` (CORS preflight is answered ' +
    'for those origins only), or server-side calls with a key of its workspace; an `api_key`-mode form needs such a ' +
    'key. The body is the flat object of field values, as JSON or as an HTML form post; a form post that accepts ' +
    '`text/html` is answered 303 to the `redirect_url`, or a thank-you page. At most 64 KiB. ' +
    'Values that do not satisfy the form get 422 `validation_failed` with one detail per field.',
  html: 'Opened from an email: answers a small HTML page, 200 when the address is verified, 404 when the link is not valid.',
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
    if (input && route.transport === 'submission') {
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
    if (route.transport === 'html') {
      const page = { content: { 'text/html': { schema: { type: 'string' } } } };
      for (const key of Object.keys(responses)) delete responses[key];
      responses[200] = { description: 'The address is verified', ...page };
      responses[404] = { description: 'The link is not valid (used, replaced or expired)', ...page };
    }
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      operationId: route.procedure,
      summary: route.summary,
      description: route.transport ? TRANSPORT_NOTES[route.transport] : ACCESS_NOTES[route.access],
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
