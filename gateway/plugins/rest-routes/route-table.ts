// The REST routes, compiled: path patterns to match, and for each route its operation checked
// against the served schema once, at start: it must validate, each parameter takes the bounds
// of the argument it fills (@constraint in the schema), and a route whose responses are shared
// between accounts must not select anything that depends on the account.
import { getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLArgument, type GraphQLSchema } from 'graphql';
import { ConfigError } from '../../../lib/config-validation.ts';
import { boundsOf, type ArgumentBounds } from '../../../resolvers/constraints.ts';
import { accountDependentFields } from '../../../resolvers/entitlements.ts';
import { compilePathTemplate, pathParams, type PathTemplate } from '../../pipeline/path-template.ts';
import type { OperationLibrary } from './operations.ts';
import type { ParamRule, RestRoutesOptions, RouteConfig } from './options.ts';
import { INT32_MAX, variablesFor } from './params.ts';

export interface RouteMatch {
  route: CompiledRoute;
  pathParams: Record<string, string>;
}

export interface CompiledRoute {
  config: RouteConfig;
  /** Its path; `template.names` are its path parameters. */
  template: PathTemplate;
  document: DocumentNode;
  /** The operation's one root field (its response key), whose value becomes the body. */
  rootField: string;
  /** The parameters' rules in force: as configured, within the bounds of the arguments they fill (set by `bind`). */
  params: Record<string, ParamRule>;
  /** The schema's arguments each variable of the operation fills (set by `bind`). */
  argumentsByVariable: Map<string, GraphQLArgument[]>;
}

function rootFieldOf(document: DocumentNode, operation: string): string {
  const definition = document.definitions[0];
  if (definition?.kind !== Kind.OPERATION_DEFINITION || definition.operation !== 'query') {
    throw new ConfigError(`operation ${operation} must be a query`);
  }
  const fields = definition.selectionSet.selections;
  const [field] = fields;
  if (fields.length !== 1 || field?.kind !== Kind.FIELD) throw new ConfigError(`operation ${operation} must select exactly one root field`);
  return field.alias?.value ?? field.name.value;
}

/** The argument definitions each variable of the operation fills directly. */
function argumentsByVariable(schema: GraphQLSchema, document: DocumentNode): Map<string, GraphQLArgument[]> {
  const filled = new Map<string, GraphQLArgument[]>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (node.value.kind !== Kind.VARIABLE || !argument) return;
        const name = node.value.name.value;
        filled.set(name, [...(filled.get(name) ?? []), argument]);
      },
    }),
  );
  return filled;
}

/** The bounds of an argument: its @constraint, and for an Int its 32-bit range (GraphQL refuses values beyond it). */
function argumentBounds(argument: GraphQLArgument): ArgumentBounds {
  const bounds = boundsOf(argument);
  if (getNamedType(argument.type).name !== 'Int') return bounds;
  return { ...bounds, min: Math.max(bounds.min ?? -INT32_MAX - 1, -INT32_MAX - 1), max: Math.min(bounds.max ?? INT32_MAX, INT32_MAX) };
}

/**
 * `rule` within the bounds of `argument`: bounds the config leaves out are the schema's; a
 * configured bound may narrow the schema's, never widen it.
 */
function ruleWithin(rule: ParamRule, argument: GraphQLArgument, where: string): ParamRule {
  const bounds = argumentBounds(argument);
  const lower = (name: string, configured: number | undefined, schema: number | undefined) => {
    if (configured !== undefined && schema !== undefined && configured < schema) throw new ConfigError(`${where}.${name} ${configured} is below the schema's bound for ${argument.name} (${schema})`);
    return configured ?? schema;
  };
  const upper = (name: string, configured: number | undefined, schema: number | undefined) => {
    if (configured !== undefined && schema !== undefined && configured > schema) throw new ConfigError(`${where}.${name} ${configured} is above the schema's bound for ${argument.name} (${schema})`);
    return configured ?? schema;
  };
  if (rule.type === 'integer') return { ...rule, minimum: lower('minimum', rule.minimum, bounds.min), maximum: upper('maximum', rule.maximum, bounds.max) };
  if (rule.type === 'string') return { ...rule, minLength: lower('minLength', rule.minLength, bounds.minLength), maxLength: upper('maxLength', rule.maxLength, bounds.maxLength) };
  return rule;
}

export class RouteTable {
  readonly routes: CompiledRoute[];

  constructor(
    readonly options: RestRoutesOptions,
    private readonly operations: OperationLibrary,
    /** Where the routes are in .meshrc.yaml, for errors (formatPath of the plugin's options). */
    where?: string,
  ) {
    this.routes = options.routes.map((config, index) => {
      const template = compilePathTemplate(config.path);
      let document: DocumentNode;
      try {
        document = operations.document(config.operation);
      } catch (error) {
        if (!(error instanceof ConfigError) || !where) throw error;
        throw new ConfigError(`.meshrc.yaml: ${where}.routes[${index}].operation (route ${config.path}): ${error.message}`, { cause: error });
      }
      return { config, template, document, rootField: rootFieldOf(document, config.operation), params: config.params, argumentsByVariable: new Map() };
    });
  }

  /** Checks every route's operation against the schema being served (ConfigError naming the route). */
  bind(schema: GraphQLSchema): void {
    for (const route of this.routes) {
      const { path, operation, cache } = route.config;
      const errors = this.operations.validate(schema, route.document);
      if (errors.length) throw new ConfigError(`route ${path}: operation ${operation} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
      if (cache.seconds > 0 && cache.scope === 'shared') {
        const dependent = accountDependentFields(schema, route.document);
        if (dependent.length) {
          throw new ConfigError(
            `route ${path}: cache scope "shared" would give one account's answer to others: operation ${operation} selects ${dependent.join(', ')}, which depend on the caller's account (use scope: account)`,
          );
        }
      }
      const filled = argumentsByVariable(schema, route.document);
      route.argumentsByVariable = filled;
      route.params = Object.fromEntries(
        Object.entries(route.config.params).map(([name, rule]) => [
          name,
          (filled.get(rule.variable ?? name) ?? []).reduce((narrowed, argument) => ruleWithin(narrowed, argument, `route ${path}: params.${name}`), rule),
        ]),
      );
    }
  }

  match(path: string): RouteMatch | undefined {
    for (const route of this.routes) {
      const params = pathParams(route.template, path);
      if (params) return { route, pathParams: params };
    }
    return undefined;
  }

  /** A matched route's variables by its rules (ParamError when one is broken). */
  static variables(match: RouteMatch, query: URLSearchParams): Record<string, unknown> {
    return variablesFor(match.route.params, query, match.pathParams);
  }

  /** The response body of a successful result. */
  static body(route: CompiledRoute, data: Record<string, unknown>): unknown {
    const value = data[route.rootField];
    return route.config.envelope === 'page' ? value : { data: value };
  }
}
