// The OpenAPI 3.1 document of the REST routes, derived from the same route table that serves
// them: parameters from the declared rules (types, bounds, defaults, enums), response schemas
// from each operation's selection set typed by the schema (aliases become property names),
// the error responses, and what the other plugins describe of themselves (how keys are sent,
// the headers every response carries), under the names they are configured with.
import {
  GraphQLNonNull,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { ApiDescription } from '../../pipeline/plugin.ts';
import type { ParamRule, RestRoutesOptions } from './options.ts';
import type { CompiledRoute } from './route-table.ts';

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** JSON Schema of what a selection set returns, field by field (aliases as property names). */
function selectionSchema(
  schema: GraphQLSchema,
  document: DocumentNode,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
): JsonSchema {
  if (isNonNullType(type)) {
    const inner = selectionSchema(schema, document, type.ofType, selectionSet);
    const { type: t, anyOf } = inner;
    if (Array.isArray(t)) return { ...inner, type: t.filter((x) => x !== 'null') };
    if (anyOf) return (anyOf as JsonSchema[])[0]!;
    return inner;
  }
  if (isListType(type)) return nullable({ type: 'array', items: selectionSchema(schema, document, type.ofType, selectionSet) });
  if (isScalarType(type)) return nullable(SCALARS[type.name] ?? { type: 'string' });
  if (isEnumType(type)) return nullable({ type: 'string', enum: type.getValues().map((v) => v.name) });
  if (!isObjectType(type) || !selectionSet) return nullable({ type: 'object' });

  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const collect = (set: SelectionSetNode, conditional: boolean) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet, conditional);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet, conditional);
      } else {
        const field = type.getFields()[selection.name.value];
        if (!field) continue;
        const key = selection.alias?.value ?? selection.name.value;
        const skippable = conditional || (selection.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip') ?? false);
        properties[key] = { ...selectionSchema(schema, document, field.type, selection.selectionSet), ...(field.description ? { description: field.description } : {}) };
        if (!skippable) required.push(key);
      }
    }
  };
  collect(selectionSet, false);
  return nullable({ type: 'object', properties, required, additionalProperties: false });
}

function rootFieldSchema(schema: GraphQLSchema, route: CompiledRoute): JsonSchema {
  let result: JsonSchema = {};
  const typeInfo = new TypeInfo(schema);
  const operation = route.document.definitions[0]!;
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if ((node.alias?.value ?? node.name.value) === route.rootField && typeInfo.getParentType() === schema.getQueryType()) {
          // A 200 always has the root field's value: a null one comes with an error, which is the response.
          const type = typeInfo.getType()!;
          result = selectionSchema(schema, route.document, isNonNullType(type) ? type : new GraphQLNonNull(type), node.selectionSet);
          return false;
        }
        return undefined;
      },
    }),
  );
  return result;
}

function paramSchema(rule: ParamRule): JsonSchema {
  switch (rule.type) {
    case 'integer':
      return { type: 'integer', ...(rule.minimum !== undefined && { minimum: rule.minimum }), ...(rule.maximum !== undefined && { maximum: rule.maximum }), ...(rule.default !== undefined && { default: rule.default }) };
    case 'string':
      return { type: 'string', minLength: Math.max(rule.minLength ?? 1, 1), ...(rule.maxLength !== undefined && { maxLength: rule.maxLength }), ...(rule.default !== undefined && { default: rule.default }) };
    case 'enum':
      return { type: 'string', enum: Object.keys(rule.values), ...(rule.default !== undefined && { default: rule.default }) };
    case 'flag':
      return { type: 'integer', enum: [0, 1], default: rule.default ?? 0 };
  }
}

const ERRORS: Record<string, string> = {
  '400': 'A parameter breaks its rule; the message names it.',
  '401': 'The API key is missing or invalid.',
  '403': 'Premium content that the caller’s account does not own.',
  '404': 'Nothing matches.',
  '405': 'Only GET and HEAD are allowed.',
  '429': 'The rate limit is exceeded; Retry-After says when to try again.',
  '500': 'Unexpected error.',
  '503': 'Rate limiting unavailable (when configured to fail closed).',
};

export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly CompiledRoute[], options: RestRoutesOptions['openapi'], api: ApiDescription): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  const everyResponseHeaders = Object.fromEntries(Object.keys(api.responseHeaders ?? {}).map((name) => [name, { $ref: `#/components/headers/${headerComponent(name)}` }]));
  const errorResponse = (description: string) => ({
    description,
    headers: everyResponseHeaders,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  for (const route of routes) {
    const { config } = route;
    const parameters = [
      ...route.pathParamNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: 'Numeric id or slug' })),
      ...Object.entries(route.params).map(([name, rule]) => ({
        name,
        in: 'query',
        required: rule.required,
        schema: paramSchema(rule),
        ...(rule.description && { description: rule.description }),
      })),
    ];
    const operationId = config.operation.charAt(0).toLowerCase() + config.operation.slice(1);
    const bodySchema = config.envelope === 'page' ? rootFieldSchema(schema, route) : { type: 'object', properties: { data: rootFieldSchema(schema, route) }, required: ['data'], additionalProperties: false };
    const used = new Set(['401', '404', '405', '429', '500', '503', ...(Object.keys(route.params).length || route.pathParamNames.length ? ['400'] : []), ...(route.pathParamNames.length ? ['403'] : [])]);
    paths[config.path] = {
      get: {
        operationId,
        ...(config.summary && { summary: config.summary }),
        parameters,
        responses: {
          '200': {
            description: 'OK',
            headers: {
              ...everyResponseHeaders,
              ETag: { schema: { type: 'string' }, description: 'Strong validator; send it back in If-None-Match for a 304.' },
            },
            content: { 'application/json': { schema: bodySchema } },
          },
          '304': { description: 'Not modified (If-None-Match matched the ETag).' },
          ...Object.fromEntries(Object.entries(ERRORS).filter(([status]) => used.has(status)).map(([status, text]) => [status, errorResponse(text)])),
        },
      },
    };
  }
  const securitySchemes = api.securitySchemes ?? {};
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    security: Object.keys(securitySchemes).map((name) => ({ [name]: [] })),
    paths,
    components: {
      securitySchemes,
      headers: Object.fromEntries(Object.entries(api.responseHeaders ?? {}).map(([name, header]) => [headerComponent(name), header])),
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          additionalProperties: false,
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              additionalProperties: false,
              properties: { code: { type: 'integer', description: 'The HTTP status code.' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  };
}

/** The component name of a header: X-RateLimit-Limit -> XRateLimitLimit. */
function headerComponent(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '');
}
