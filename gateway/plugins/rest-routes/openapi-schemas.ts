// JSON Schemas of what the routes' operations return, read from their selection sets typed by
// the served schema: aliases become property names, fields under @include/@skip are optional,
// and a selection that is exactly one fragment spread becomes a named component schema,
// `#/components/schemas/<fragment name>`, shared by every route that spreads it (so the
// operations' fragments name the API's resources: Icon, IconDetail, Category, PageMeta...).
import {
  GraphQLNonNull,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ConfigError } from '../../../lib/config-validation.ts';

export type JsonSchema = Record<string, unknown>;

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

function nonNull(schema: JsonSchema): JsonSchema {
  const { type, anyOf } = schema;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  if (anyOf) return (anyOf as JsonSchema[])[0]!;
  return schema;
}

/** The only selection of a set when it is one plain fragment spread (no directives) of a fragment on `typeName`. */
function soleFragment(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, typeName: string): FragmentDefinitionNode | undefined {
  const [only, ...more] = set.selections;
  if (more.length || only?.kind !== Kind.FRAGMENT_SPREAD || only.directives?.length) return undefined;
  const fragment = fragments.get(only.name.value);
  return fragment?.typeCondition.name.value === typeName ? fragment : undefined;
}

/**
 * Collects the schemas of the routes' responses. `components` holds the named schemas found so
 * far; component names given in `reserved` (the document's own, such as Error) may not be
 * taken by a fragment.
 */
export class ResponseSchemas {
  readonly components: Record<string, JsonSchema> = {};

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly reserved: readonly string[],
  ) {}

  /** The schema of the value of an operation's one root field. */
  rootField(document: DocumentNode): JsonSchema {
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const field = operation.selectionSet.selections[0];
    const definition = field?.kind === Kind.FIELD ? this.schema.getQueryType()?.getFields()[field.name.value] : undefined;
    if (!field || field.kind !== Kind.FIELD || !definition) return {};
    // A 200 always holds the root field's value: a null one comes with an error, and the error is the response.
    const type = isNonNullType(definition.type) ? definition.type : new GraphQLNonNull(definition.type);
    return this.selection(fragmentsOf(document), type, field.selectionSet);
  }

  private selection(fragments: Map<string, FragmentDefinitionNode>, type: GraphQLOutputType, set: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return nonNull(this.selection(fragments, type.ofType, set));
    if (isListType(type)) return nullable({ type: 'array', items: this.selection(fragments, type.ofType, set) });
    if (isScalarType(type)) return nullable(SCALARS[type.name] ?? { type: 'string' });
    if (isEnumType(type)) return nullable({ type: 'string', enum: type.getValues().map((v) => v.name) });
    if (!isObjectType(type) || !set) return nullable({ type: 'object' });
    const fragment = soleFragment(set, fragments, type.name);
    if (!fragment) return nullable(this.object(fragments, type, set));
    const name = fragment.name.value;
    if (this.reserved.includes(name)) throw new ConfigError(`fragment ${name} would name an OpenAPI schema the document defines itself (${this.reserved.join(', ')}); rename the fragment`);
    if (!this.components[name]) {
      this.components[name] = {}; // taken before recursing, in case the fragment is reached again inside
      this.components[name] = this.object(fragments, type, fragment.selectionSet);
    }
    return nullable({ $ref: `#/components/schemas/${name}` });
  }

  private object(fragments: Map<string, FragmentDefinitionNode>, type: GraphQLObjectType, set: SelectionSetNode): JsonSchema {
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const collect = (selections: SelectionSetNode, conditional: boolean) => {
      for (const selection of selections.selections) {
        const skippable = conditional || (selection.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip') ?? false);
        if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const spread = fragments.get(selection.name.value);
          if (spread) collect(spread.selectionSet, skippable);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          collect(selection.selectionSet, skippable);
        } else {
          const field = fields[selection.name.value];
          if (!field) continue;
          const key = selection.alias?.value ?? selection.name.value;
          // A field that takes arguments describes them (GraphQL terms): its description stays out.
          const description = field.args.length === 0 ? field.description : undefined;
          properties[key] = { ...this.selection(fragments, field.type, selection.selectionSet), ...(description && { description }) };
          if (!skippable && !required.includes(key)) required.push(key);
        }
      }
    };
    collect(set, false);
    return { type: 'object', properties, required, additionalProperties: false };
  }
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}
