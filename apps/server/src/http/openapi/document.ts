import { ERROR_CODES, type ErrorCode, type RestRoute, restRoutes } from '@lfk/api';
import { health, readiness } from '../health.ts';
import { PAGE_ALLOWED_HEADERS } from '../browser-routes.ts';
import { SUBMISSION_ALLOWED_HEADERS } from '../submissions.ts';
import { ANY_REQUEST, BEFORE_ROUTING, descriptionOf, errorsOf, PATH_PARAMETERS, securityOf, TAG_OF_ROUTER, TAGS, type Tag } from './operations.ts';
import { type ErrorMedia, errorResponses, headerRef, SharedResponses, sharedComponents } from './responses.ts';
import { type JsonSchema, SchemaComponents } from './schemas.ts';

const REQUEST_ID = { 'x-request-id': headerRef('RequestId') };
const PAGE = { 'text/html': { schema: { type: 'string' } } };
const JSON_ONLY: ErrorMedia = { json: new Set(ERROR_CODES), html: new Set() };

/** Which error answers are pages: a route whose answers are all pages, or form posts' refusals. */
function errorMediaOf(route: RestRoute, codes: ErrorCode[]): ErrorMedia {
  if (route.transport === 'html') {
    return { json: BEFORE_ROUTING, html: new Set(codes.filter((c) => c === 'invalid_request' || !BEFORE_ROUTING.has(c))) };
  }
  if (route.transport === 'password_reset') {
    // Opening the link and its form's post get pages; a JSON post gets JSON.
    return {
      json: route.method === 'GET' ? BEFORE_ROUTING : new Set(ERROR_CODES),
      html: new Set(codes.filter((c) => c === 'invalid_request' || !BEFORE_ROUTING.has(c))),
    };
  }
  if (route.transport === 'submission') {
    // Whatever refuses an HTML form post, the route's handler or the body parser before it, it sees a page.
    return {
      json: new Set(ERROR_CODES),
      html: new Set([...route.errors, 'invalid_request', 'unsupported_media_type', 'idempotency_key_reused', 'internal_error']),
    };
  }
  return JSON_ONLY;
}

function successResponses(route: RestRoute, output: JsonSchema | null): Record<string, unknown> {
  const headers = { ...REQUEST_ID, ...(route.idempotent ? { 'idempotent-replayed': headerRef('IdempotentReplayed') } : {}) };
  if (route.transport === 'html') {
    const stop = route.procedure.startsWith('autoReplyStops.');
    const ok =
      route.method === 'GET'
        ? `A page with a "${stop ? 'Stop them' : 'Verify'}" button; nothing changed`
        : stop
          ? 'A page saying the address gets no more auto-replies from the workspace'
          : 'A page saying the address is verified';
    return { 200: { description: ok, headers, content: PAGE } };
  }
  if (route.transport === 'password_reset') {
    if (route.method === 'GET') return { 200: { description: 'A page with a form for the new password; nothing changed', headers, content: PAGE } };
    return {
      200: { description: "The page's form post (urlencoded): a page saying the password is changed", headers, content: PAGE },
      204: { description: 'A JSON post: the password is changed', headers },
    };
  }
  if (route.transport === 'export') {
    return {
      200: {
        description: 'The file, streamed: CSV (`format=csv`) or JSON Lines (`format=jsonl`)',
        headers: { ...headers, 'Content-Disposition': { description: 'attachment, with a file name', schema: { type: 'string' } } },
        content: {
          'text/csv': { schema: { type: 'string', description: 'A header row, then one row per submission, oldest first.' } },
          'application/x-ndjson': { schema: { type: 'string', description: 'One JSON object per line: id, created_at, via, status, values.' } },
        },
      },
    };
  }
  if (route.transport === 'file') {
    const file = {
      'Content-Disposition': { description: 'Always `attachment`, with the name the file was sent with', schema: { type: 'string' } },
      'Content-Length': { description: 'The bytes sent', schema: { type: 'integer' } },
      ETag: { description: "The file's SHA-256, quoted", schema: { type: 'string' } },
    };
    const bytes = {
      '*/*': {
        schema: {
          type: 'string',
          format: 'binary',
          description: 'The bytes, with the type they were found to be; `nosniff` and a sandbox CSP: never rendered.',
        },
      },
    };
    return {
      200: { description: 'The whole file, as an attachment', headers: { ...headers, ...file }, content: bytes },
      206: {
        description: 'The one range `Range` asked for',
        headers: { ...headers, ...file, 'Content-Range': { description: '`bytes start-end/size`', schema: { type: 'string' } } },
        content: bytes,
      },
    };
  }
  if (route.transport === 'public_form') {
    const cached = {
      ...headers,
      ETag: { description: 'Names these exact bytes: send it back in `If-None-Match` to be answered 304 while they stay the same', schema: { type: 'string' } },
      'Cache-Control': { description: '`public, max-age=60`', schema: { type: 'string' } },
      'Access-Control-Allow-Origin': { description: "The request's `Origin`, when it is one of the form's `allowed_origins`", schema: { type: 'string' } },
    };
    return {
      200: { description: route.summary, headers: cached, content: { 'application/json': { schema: output } } },
      304: { description: 'The description named by `If-None-Match` is still the form’s: no content', headers: cached },
    };
  }
  const answer = output
    ? { description: route.summary, headers, content: { 'application/json': { schema: output } } }
    : { description: `${route.summary}: no content`, headers };
  if (route.transport !== 'submission') return { [route.status]: answer };
  return {
    200: { description: 'An HTML form post to a form without a `redirect_url`: a thank-you page', headers, content: PAGE },
    [route.status]: answer,
    303: { description: "An HTML form post, sent on to the form's `redirect_url`", headers: { ...headers, Location: headerRef('Location') } },
  };
}

interface Converted {
  route: RestRoute;
  input: JsonSchema | null;
  output: JsonSchema | null;
}

const OPTIONAL_HEADER: Partial<Record<NonNullable<RestRoute['transport']>, { name: string; description: string }>> = {
  submission: {
    name: 'Lfk-Draft',
    description: "The draft this submission completes (its `lfp_…` resume token): deleted with the submission's commit.",
  },
  public_form: {
    name: 'If-None-Match',
    description: 'The `ETag` of a description the caller holds (a browser sends it by itself when it revalidates): answered 304 while it is current.',
  },
  file: {
    name: 'Range',
    description: 'One byte range (`bytes=0-1023`, `bytes=-500`): answered 206 with those bytes; several, or a malformed one, get the whole file.',
  },
};

function parametersOf({ route, input }: Converted): unknown[] {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const parameters: unknown[] = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETERS[name],
    schema: { type: 'string' },
  }));
  // The one optional request header each of these routes reads.
  const optional = route.transport ? OPTIONAL_HEADER[route.transport] : undefined;
  if (optional) parameters.push({ ...optional, in: 'header', required: false, schema: { type: 'string' } });
  if (route.transport !== 'file' && input && route.from === 'query') {
    const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, { description, ...schema }] of Object.entries(properties)) {
      if (!pathParams.includes(name)) parameters.push({ name, in: 'query', required: false, description, schema });
    }
  }
  if (route.transport === 'signed_report') {
    parameters.push(
      {
        name: 'Github-Public-Key-Identifier',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: 'Which trusted key signed the report (`LFK_SECRET_SCANNING_KEYS`).',
      },
      {
        name: 'Github-Public-Key-Signature',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: 'Base64 DER ECDSA P-256 / SHA-256 signature of the raw body.',
      },
    );
  }
  if (route.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return parameters;
}

/** A file's bytes in a multipart body. */
const FILE_PART = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

function requestBodyOf({ route, input }: Converted): unknown {
  if (route.transport === 'html') {
    return route.method === 'POST'
      ? { required: false, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', description: 'Ignored.' } } } }
      : undefined;
  }
  if (!input) return undefined;
  if (route.transport === 'password_reset') {
    if (route.method === 'GET') return undefined;
    return { required: true, content: { 'application/json': { schema: input }, 'application/x-www-form-urlencoded': { schema: input } } };
  }
  if (route.transport === 'signed_report') return { required: true, content: { 'application/json': { schema: input } } };
  if (route.transport === 'submission') {
    const multipart = {
      type: 'object',
      description:
        "The form's values as parts, and each `file` field's files as file parts (a field that takes several repeats its name). " +
        "Limits: each file its field's `max_size` " +
        '(at most `LFK_MAX_FILE_SIZE`), the files together `LFK_MAX_SUBMISSION_SIZE`; types are judged by the bytes.',
      // Which parts are files depends on the form (its `file` fields): each part may be either, and a
      // file part says so (`format: binary` for OpenAPI 3.0 tools, `contentMediaType` for 3.1's), so
      // a generated client takes bytes there rather than a string.
      additionalProperties: {
        anyOf: [
          { type: 'string', description: 'A text value.' },
          { ...FILE_PART, description: 'A file part: its bytes, with its file name and type in its headers.' },
          { type: 'array', items: FILE_PART, description: 'Several files of one `file` field, one part each under the same name.' },
        ],
      },
    };
    return {
      required: true,
      content: { 'application/json': { schema: input }, 'application/x-www-form-urlencoded': { schema: input }, 'multipart/form-data': { schema: multipart } },
    };
  }
  if (route.from !== 'body') return undefined;
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const properties = Object.fromEntries(Object.entries((input.properties ?? {}) as object).filter(([k]) => !pathParams.includes(k)));
  const required = ((input.required ?? []) as string[]).filter((k) => !pathParams.includes(k));
  return {
    required: required.length > 0,
    content: { 'application/json': { schema: { ...input, properties, ...(required.length > 0 ? { required } : { required: undefined }) } } },
  };
}

function operationOf(converted: Converted, shared: SharedResponses): Record<string, unknown> {
  const { route, output } = converted;
  const codes = errorsOf(route);
  const requestBody = requestBodyOf(converted);
  return {
    operationId: route.procedure,
    summary: route.summary,
    description: descriptionOf(route),
    tags: [TAG_OF_ROUTER[route.procedure.split('.')[0]!]],
    parameters: parametersOf(converted),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...successResponses(route, output), ...errorResponses(codes, errorMediaOf(route, codes), shared) },
    security: securityOf(route),
  };
}

/**
 * Routes the server answers itself, not through a procedure. `/metrics` is not among them: it is an
 * operator's route, off by default and often on a port of its own, documented in docs/, not here.
 */
function serverOperations(components: SchemaComponents, shared: SharedResponses): Record<string, Record<string, unknown>> {
  // These ask the database nothing (`/readyz` answers its own 503).
  const codes = ANY_REQUEST.filter((code) => code !== 'service_unavailable');
  const plain = (operationId: string, summary: string, description: string, ok: unknown, more: Record<string, unknown> = {}) => ({
    operationId,
    summary,
    description,
    tags: ['Operations' satisfies Tag],
    responses: { 200: ok, ...more, ...errorResponses(codes, JSON_ONLY, shared) },
    security: [],
  });
  const json = (description: string, schema: JsonSchema) => ({ description, headers: REQUEST_ID, content: { 'application/json': { schema } } });
  const readyz = components.toJson(readiness, 'output');
  return {
    '/healthz': {
      get: plain('healthz', 'The process is up', 'Answers as long as the process runs; no database access.', json('Up', components.toJson(health, 'output'))),
    },
    '/readyz': {
      get: plain('readyz', 'The database is reachable', 'For a load balancer: 503 while the database does not answer (within 2 s).', json('Ready', readyz), {
        503: {
          ...json('The database does not answer', readyz),
          headers: { ...REQUEST_ID, 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'string' } } },
        },
      }),
    },
    '/v1/openapi.json': {
      get: plain('openapi', 'This document', 'The OpenAPI 3.1 description of the API; `/docs` shows it for people.', json('The document', { type: 'object' })),
    },
    ...kitOperations(codes, shared),
  };
}

/** The browser kit (`http/kit.ts`): a script any site may load, the newest or one version for good. */
function kitOperations(codes: ErrorCode[], shared: SharedResponses): Record<string, Record<string, unknown>> {
  const header = (description: string) => ({ description, schema: { type: 'string' } });
  const script = (cacheControl: string) => ({
    description: 'The script (gzip or Brotli when the browser accepts them)',
    headers: {
      ...REQUEST_ID,
      'Cache-Control': header(cacheControl),
      ETag: header('The version, quoted: a request with it in `If-None-Match` is answered 304.'),
      'Access-Control-Allow-Origin': header('`*`: any site may load it and check its `integrity`.'),
      'Cross-Origin-Resource-Policy': header('`cross-origin`.'),
      'X-Content-Type-Options': header('`nosniff`.'),
    },
    content: { 'text/javascript': { schema: { type: 'string' } } },
  });
  const operation = (operationId: string, summary: string, description: string, cacheControl: string, parameters: unknown[] = []) => ({
    operationId,
    summary,
    description,
    tags: ['Form pages' satisfies Tag],
    parameters,
    responses: {
      200: script(cacheControl),
      304: { description: 'The page already has this version', headers: REQUEST_ID },
      ...errorResponses([...codes, 'not_found'], JSON_ONLY, shared),
    },
    security: [],
  });
  const about =
    'Makes every form on the page whose `action` is an lfk submission URL (or that says `data-lfk-form`) submit without ' +
    'leaving the page: errors beside their fields, upload progress, the captcha and honeypot. 404 `not_found` when the ' +
    'server has no build of it.';
  const facts = {
    type: 'object',
    required: ['version', 'src', 'integrity', 'script_tag'],
    additionalProperties: false,
    properties: {
      version: { type: 'string', description: '`<package version>-<hash of the file>`: a new file is a new version.' },
      src: { type: 'string', description: 'The versioned script’s URL, on this server’s public URL.' },
      integrity: { type: 'string', description: 'Its Subresource Integrity hash, `sha384-…`.' },
      script_tag: { type: 'string', description: 'The HTML script element that loads it with both (`crossorigin="anonymous" defer`).' },
    },
  };
  return {
    '/v1/kit': {
      get: {
        operationId: 'kit.about',
        summary: 'The browser kit’s version and integrity hash',
        description: 'What a page needs to load this server’s kit for good: its versioned URL, its `integrity` hash, and the tag with both.',
        tags: ['Form pages' satisfies Tag],
        responses: {
          200: { description: 'The kit this server serves', headers: REQUEST_ID, content: { 'application/json': { schema: facts } } },
          ...errorResponses([...codes, 'not_found'], JSON_ONLY, shared),
        },
        security: [],
      },
    },
    '/v1/kit/lfk.js': {
      get: operation('kit.latest', 'The browser kit, newest', `${about} Kept 5 minutes; pin a version instead for \`integrity\`.`, '`public, max-age=300`.'),
    },
    '/v1/kit/lfk-{version}.js': {
      get: operation(
        'kit.version',
        'The browser kit, one version',
        `${about} Never changes: load it with its \`integrity\` hash. Any other version than this server's is 404.`,
        '`public, max-age=31536000, immutable`.',
        [{ name: 'version', in: 'path', required: true, description: 'The kit version, as `GET /v1/kit` names it.', schema: { type: 'string' } }],
      ),
    },
  };
}

/** CORS preflight of submissions (`http/submissions.ts`): granted to the form's own origins only. */
/**
 * A CORS preflight lfk answers itself (`http/submissions.ts`, `http/browser-routes.ts`): granted to
 * the form's own origins only, for the methods and headers of the routes on its path.
 */
function preflightOperation(
  shared: SharedResponses,
  { operationId, tag, path, methods, headers }: { operationId: string; tag: Tag; path: string; methods: string; headers: string },
): Record<string, unknown> {
  const allow = (description: string) => ({ description, required: true, schema: { type: 'string' } });
  const pathParameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETERS[name!],
    schema: { type: 'string' },
  }));
  return {
    operationId,
    summary: `CORS preflight of a page's ${methods} to this path`,
    description: "Answered for the form's `allowed_origins` only; any other origin gets 403 and no CORS headers.",
    tags: [tag],
    parameters: [...pathParameters, { name: 'Origin', in: 'header', required: true, description: 'The page asking.', schema: { type: 'string' } }],
    responses: {
      204: {
        description: 'The origin may send these requests to the form',
        headers: {
          ...REQUEST_ID,
          'Access-Control-Allow-Origin': allow('The origin, echoed.'),
          'Access-Control-Allow-Methods': allow(`\`${methods}\`.`),
          'Access-Control-Allow-Headers': allow(`\`${headers}\`.`),
          'Access-Control-Max-Age': allow('`600`: seconds a browser may keep this answer.'),
        },
      },
      ...errorResponses([...ANY_REQUEST, 'origin_not_allowed', 'form_not_found'], JSON_ONLY, shared),
    },
    security: [],
  };
}

/** OpenAPI 3.1, generated from the route table and the very zod schemas the procedures use. */
export function buildOpenApi(publicUrl: string): Record<string, unknown> {
  const components = new SchemaComponents();
  const shared = new SharedResponses();
  // Outputs first: a name whose input side differs gets an `Input` twin, never the other way round.
  const outputs = restRoutes.map((route) => (route.output ? components.toJson(route.output, 'output') : null));
  const converted: Converted[] = restRoutes.map((route, i) => ({
    route,
    output: outputs[i]!,
    input: route.input ? components.toJson(route.input, 'input') : null,
  }));
  const paths: Record<string, Record<string, unknown>> = serverOperations(components, shared);
  for (const one of converted) {
    const path = one.route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][one.route.method.toLowerCase()] = operationOf(one, shared);
  }
  paths['/v1/forms/{form_id}/submissions']!.options = preflightOperation(shared, {
    operationId: 'submissions.preflight',
    tag: 'Submissions',
    path: '/v1/forms/{form_id}/submissions',
    methods: 'POST',
    headers: SUBMISSION_ALLOWED_HEADERS,
  });
  // The routes pages call (`transport: 'browser'`), one preflight per path.
  const pageRoutes = restRoutes.filter((route) => route.transport === 'browser');
  for (const path of new Set(pageRoutes.map((route) => route.path))) {
    const onPath = pageRoutes.filter((route) => route.path === path);
    const documented = path.replace(/:(\w+)/g, '{$1}');
    paths[documented]!.options = preflightOperation(shared, {
      operationId: `${onPath[0]!.procedure}.preflight`,
      tag: TAG_OF_ROUTER[onPath[0]!.procedure.split('.')[0]!]!,
      path: documented,
      methods: onPath.map((route) => route.method).join(', '),
      headers: PAGE_ALLOWED_HEADERS,
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      // Redoc heads the reference page with both: "lfk API (v1)".
      title: 'lfk API',
      version: 'v1',
      summary: 'A forms backend with workspace API keys.',
      description:
        'Point an HTML `<form>` at lfk, or call it with a workspace API key from your server or agent. ' +
        'Errors always look like `{"error":{"code":"…","message":"…","request_id":"…"}}`; each operation lists the codes ' +
        'it can answer with. The same API has a typed TypeScript client over `/trpc`. A reference for people is at `/docs`.',
      // No license: the project has chosen none (see docs/decisions.md), and the document does not invent one.
      contact: { name: 'The operator of this lfk server', url: publicUrl },
    },
    servers: [{ url: publicUrl, description: 'This server' }],
    tags: TAGS,
    paths,
    components: {
      schemas: { ...sharedComponents.schemas, ...components.schemas },
      responses: shared.responses,
      headers: sharedComponents.headers,
      parameters: sharedComponents.parameters,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'lfk_…',
          description: 'A workspace API key, `lfk_…`: for servers and agents, never in a web page.',
        },
        sessionBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'lfs_…',
          description: 'A session token, `lfs_…`, from sign-up, sign-in or device sign-in.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lfk_session',
          description: "The session cookie sign-up and sign-in set. Requests that change something must come from the server's own origin.",
        },
      },
    },
  };
}
