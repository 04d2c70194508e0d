import type { Res } from '@lfk/server/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

type Json = Record<string, any>;

/**
 * Checks real answers against the OpenAPI document: the status is documented for the operation,
 * the content type is one it documents, the body validates against that schema (JSON Schema
 * 2020-12, refs into `components` resolved), and every header it marks required is there. An
 * error answer's code must be one the operation lists for that status.
 */
export class Conformance {
  private readonly ajv: Ajv2020;
  /** `METHOD /path/{param}` of every answer checked, to see the flows covered what they claim. */
  readonly checked = new Set<string>();

  private readonly doc: Json;

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
  }

  private resolve(node: Json): Json {
    if (typeof node?.$ref !== 'string') return node;
    const pointer = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p: string) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    return this.resolve(pointer.reduce((at: Json, key: string) => at[key], this.doc));
  }

  /** `res`, an answer to `method path` (the documented path, `{form_id}` and all). */
  expectConforms(method: string, path: string, res: Res): void {
    const label = `${method} ${path} → ${res.status} ${res.body.slice(0, 300)}`;
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    expect(operation, `${label}: not in the document`).toBeDefined();
    this.checked.add(`${method} ${path}`);
    const documented = operation.responses[String(res.status)];
    expect(documented, `${label}: status not documented`).toBeDefined();
    const response = this.resolve(documented);

    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      if (this.resolve(header).required) expect(res.headers[name.toLowerCase()], `${label}: header ${name}`).toBeDefined();
    }
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (response.content === undefined) {
      expect(res.body, `${label}: documented without a body`).toBe('');
      return;
    }
    // A media type range (`*/*`, a file's bytes of whatever type they are) documents every type it covers.
    const covered = Object.keys(response.content).some(
      (documentedType) =>
        documentedType === type || documentedType === '*/*' || (documentedType.endsWith('/*') && type.startsWith(documentedType.slice(0, -1))),
    );
    expect(covered, `${label}: content type ${type} is not among ${Object.keys(response.content).join(', ')}`).toBe(true);
    if (type !== 'application/json') return;
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(res.status)].map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    const where = typeof documented.$ref === 'string' ? documented.$ref.slice(1) : `/${pointer}`;
    const validate = this.ajv.getSchema(`openapi.json#${where}/content/application~1json/schema`)!;
    expect(validate(res.json), `${label}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}
