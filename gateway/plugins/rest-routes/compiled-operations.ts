// The routes' operations run compiled by graphql-jit. Their documents are fixed when the gateway
// starts, so each is compiled once, on its first execution, into a function that resolves
// exactly its fields; Mesh's executor (graphql-js's algorithm) walks the selection set again on
// every execution, allocating as it goes (a promise per object with an async field, argument
// maps, field lists). Operations sent to /graphql are not compiled: any text can arrive there,
// and compiling one costs more than running it once.
//
// Leaves are not serialized (graphql-jit's disableLeafSerialization): the routes' operations are
// fixed and our resolvers return the schema's scalar types (int8 arrives as a number, reads.ts),
// and each leaf's check allocated its location and path arrays on every icon of a page. The
// schema has no custom scalar and no output enum; /graphql keeps graphql-js's serialization.
//
// Not @envelop/graphql-jit: it pins graphql-jit 0.8.7, whose responses put the fields of
// fragment spreads after the other fields of a selection (`license_url`, `tags` and `svg`
// before `id` in an icon), not in the order the operation asks; 0.8.9 keeps the order (a test
// in rest-api.test.ts checks the specification's order on pages and single icons).
import { makeExecute } from '@envelop/core';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { SharedResources } from '../../shared-resources.ts';

/** What was compiled, by schema and document; gateways of one process share it across config reloads. */
export type CompiledQueries = WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledQuery | ExecutionResult>>;

/** The process's compiled queries, kept across config reloads (every plugin that runs operations compiled shares them). */
export const keptCompiledQueries = (keep: SharedResources['keep']): CompiledQueries => keep('compiled-operations', null, (): CompiledQueries => new WeakMap());

/**
 * An envelop plugin that runs `documents` compiled, each compiled once per schema (into
 * `compiledFor`: a reload that kept the documents, operations.ts, keeps their compiled queries).
 */
export function useCompiledOperations(documents: ReadonlySet<DocumentNode>, compiledFor: CompiledQueries = new WeakMap()): YogaPlugin {

  function compiled(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | ExecutionResult {
    let bySchema = compiledFor.get(schema);
    if (!bySchema) {
      bySchema = new WeakMap();
      compiledFor.set(schema, bySchema);
    }
    let entry = bySchema.get(document);
    if (!entry) {
      entry = compileQuery(schema, document, operationName, { disableLeafSerialization: true });
      bySchema.set(document, entry);
    }
    return entry;
  }

  const execute = makeExecute((args) => {
    const entry = compiled(args.schema, args.document, args.operationName ?? undefined);
    // A document the schema does not fit comes back as the errors graphql-js would give.
    return isCompiledQuery(entry) ? entry.query(args.rootValue, args.contextValue, args.variableValues) : entry;
  });

  return {
    onExecute({ args, setExecuteFn }) {
      if (documents.has(args.document)) setExecuteFn(execute);
    },
  };
}
