// The REST routes, compiled: path patterns to match, and for each route its operation
// validated against the served schema and compiled once (graphql-jit), so a request costs a
// regex, the parameter rules and one execution.
import { validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { ConfigError } from '../../lib/config-validation.ts';
import type { OperationLibrary } from './operations.ts';
import { variablesFor } from './params.ts';
import type { RestRoutesOptions, RouteConfig } from './route-config.ts';

export interface RouteMatch {
  route: CompiledRoute;
  pathParams: Record<string, string>;
}

export interface CompiledRoute {
  config: RouteConfig;
  pattern: RegExp;
  pathParamNames: string[];
  document: DocumentNode;
  /** Set by `bind`. */
  compiled?: CompiledQuery;
  /** The operation's one root field (its response key), whose value becomes the body. */
  rootField: string;
}

function compilePattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/[.]/g, '\\.').replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}/?$`), names };
}

function rootFieldOf(document: DocumentNode, operation: string): string {
  const definition = document.definitions[0];
  if (definition?.kind !== 'OperationDefinition' || definition.operation !== 'query') {
    throw new ConfigError(`operation ${operation} must be a query`);
  }
  const fields = definition.selectionSet.selections;
  const [field] = fields;
  if (fields.length !== 1 || field?.kind !== 'Field') throw new ConfigError(`operation ${operation} must select exactly one root field`);
  return field.alias?.value ?? field.name.value;
}

export class RouteTable {
  readonly routes: CompiledRoute[];

  constructor(
    readonly options: RestRoutesOptions,
    operations: OperationLibrary,
  ) {
    this.routes = options.routes.map((config) => {
      const { pattern, names } = compilePattern(config.path);
      const document = operations.document(config.operation);
      return { config, pattern, pathParamNames: names, document, rootField: rootFieldOf(document, config.operation) };
    });
  }

  /** Validates every route's operation against the schema and compiles it. */
  bind(schema: GraphQLSchema): void {
    for (const route of this.routes) {
      const errors = validate(schema, route.document);
      if (errors.length) {
        throw new ConfigError(`route ${route.config.path}: operation ${route.config.operation} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
      }
      const compiled = compileQuery(schema, route.document, route.config.operation);
      if (!isCompiledQuery(compiled)) {
        throw new ConfigError(`route ${route.config.path}: operation ${route.config.operation}: ${compiled.errors?.map((e) => e.message).join('; ')}`);
      }
      route.compiled = compiled;
    }
  }

  match(path: string): RouteMatch | undefined {
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      let decodable = true;
      route.pathParamNames.forEach((name, i) => {
        try {
          pathParams[name] = decodeURIComponent(found[i + 1]!);
        } catch {
          decodable = false;
        }
      });
      if (decodable) return { route, pathParams };
    }
    return undefined;
  }

  /** A matched route's variables by its rules (ParamError when one is broken). */
  static variables(match: RouteMatch, query: URLSearchParams): Record<string, unknown> {
    return variablesFor(match.route.config.params, query, match.pathParams);
  }

  /** Runs a matched route's operation. */
  static async execute(match: RouteMatch, variables: Record<string, unknown>, context: object): Promise<ExecutionResult> {
    const { route } = match;
    if (!route.compiled) throw new Error(`route ${route.config.path} is not bound to a schema yet`);
    return route.compiled.query(undefined, context, variables);
  }

  /** The response body of a successful result. */
  static body(route: CompiledRoute, data: Record<string, unknown>): unknown {
    const value = data[route.rootField];
    return route.config.envelope === 'page' ? value : { data: value };
  }
}
