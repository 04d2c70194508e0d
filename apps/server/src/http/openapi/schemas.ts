import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** `#/$defs/Form` → `#/components/schemas/Form`, everywhere in a converted schema. */
function pointRefsAt(value: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => pointRefsAt(item, rename));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? [key, `${COMPONENTS}${rename(inner.slice('#/$defs/'.length))}`]
        : [key, pointRefsAt(inner, rename)],
    ),
  );
}

/**
 * Turns the procedures' zod schemas into JSON Schema for OpenAPI. Schemas named with
 * `.meta({ id })` become `components.schemas` entries, referenced wherever they appear, so
 * generated clients get named types. A name whose input side differs from its output side (a
 * default, a transform) gets an `Input` twin.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _dialect,
      $defs = {},
      ...json
    } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const names = new Map<string, string>();
    for (const [name, def] of Object.entries($defs)) names.set(name, this.place(name, def, io));
    const rename = (name: string) => names.get(name) ?? name;
    for (const [name, def] of Object.entries($defs)) this.schemas[rename(name)] = pointRefsAt(def, rename) as JsonSchema;
    return pointRefsAt(json, rename) as JsonSchema;
  }

  /** Where a named schema goes: its own name, unless the other side already holds a different one there. */
  private place(name: string, def: JsonSchema, io: 'input' | 'output'): string {
    const existing = this.schemas[name];
    if (existing === undefined || JSON.stringify(existing) === JSON.stringify(pointRefsAt(def, (n) => n))) return name;
    return io === 'input' ? `${name}Input` : name;
  }
}
