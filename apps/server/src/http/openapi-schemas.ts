import { z } from 'zod';

/** The JSON Schemas of an API document: its zod schemas converted, named ones as components. */

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/**
 * JSON Schemas of zod schemas, for one document: schemas named with `.meta({ id })` become components and are
 * referenced, every other one is written in place. Two different schemas may not share a name.
 */
export class SchemaSet {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const {
      $schema: _drop,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
    }) as Json & { $defs?: Record<string, Json> };
    for (const [name, def] of Object.entries($defs ?? {})) this.add(name, this.rewrite(def) as Json);
    return this.rewrite(rest) as Json;
  }

  private add(name: string, schema: Json) {
    const known = this.components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`two different response schemas are named ${name}`);
    this.components[name] = schema;
  }

  private rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v));
    if (!value || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof v === 'string'
          ? v.replace('#/$defs/', '#/components/schemas/')
          : this.rewrite(v);
    }
    return out;
  }
}

/** The parameters of an object schema, one per property, in `location`. */
export function parameters(
  schemas: SchemaSet,
  schema: z.ZodType | undefined,
  location: 'query' | 'path',
  pathNames: string[],
) {
  const names = new Set(pathNames);
  const out: Json[] = [];
  if (schema) {
    const json = schemas.convert(schema, 'input') as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      names.delete(name);
      const required = location === 'path' || (json.required ?? []).includes(name);
      const { default: _default, ...withoutDefault } = property;
      // A path parameter has no default (it is always there); a query one keeps it.
      out.push({ name, in: location, required, schema: location === 'path' ? withoutDefault : property });
    }
  }
  // Path parameters a route reads without a schema are still listed.
  if (location === 'path')
    for (const name of names)
      out.push({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
        ...(name === 'path' ? { description: 'The rest of the path (any text)' } : {}),
      });
  return out;
}
