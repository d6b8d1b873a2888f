// The named GraphQL operations behind the REST routes: every .graphql file of the operations
// folder, parsed once at start. Fragments are shared across files; each operation is given
// the fragments it uses, so it can be validated and compiled on its own. The plugins of a
// gateway that read the same folder, and the gateways a config reload builds while the files
// stay as they were, share one library (`sharedOperations`): the same document objects, so
// what was derived from them (their validation against the schema, graphql-jit's compiled
// queries) is not done again.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, validate, visit, type DocumentNode, type FragmentDefinitionNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ConfigError } from '../../../lib/config-validation.ts';
import type { SharedResources } from '../../shared-resources.ts';

export interface OperationLibrary {
  /** A document holding the named operation and the fragments it needs (the same object on every call). */
  document(name: string): DocumentNode;
  /** graphql-js's validation of one of its documents against `schema`, done once per schema. */
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
}

interface OperationFile {
  path: string;
  text: string;
}

function readOperationFiles(dir: string): OperationFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((file) => file.endsWith('.graphql')).sort();
  } catch (error) {
    throw new ConfigError(`operations folder ${dir} cannot be read: ${(error as Error).message}`);
  }
  return names.map((name) => ({ path: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }));
}

/** The library of `dir`, the one another gateway of the process holds when the folder's files are the same. */
export function sharedOperations(dir: string, keep: SharedResources['keep']): OperationLibrary {
  const files = readOperationFiles(dir);
  const digest = createHash('sha256');
  for (const { path, text } of files) digest.update(`${path}\0${text}\0`);
  return keep('operations', { dir, files: digest.digest('hex') }, () => parseOperations(dir, files));
}

export function loadOperations(dir: string): OperationLibrary {
  return parseOperations(dir, readOperationFiles(dir));
}

function parseOperations(dir: string, files: readonly OperationFile[]): OperationLibrary {
  const operations = new Map<string, OperationDefinitionNode>();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { path, text } of files) {
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      throw new ConfigError(`${path}: ${(error as Error).message}`);
    }
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) {
        const name = definition.name?.value;
        if (!name) throw new ConfigError(`${path}: every operation needs a name`);
        if (operations.has(name)) throw new ConfigError(`${path}: operation ${name} is defined twice`);
        operations.set(name, definition);
      } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        if (fragments.has(definition.name.value)) throw new ConfigError(`${path}: fragment ${definition.name.value} is defined twice`);
        fragments.set(definition.name.value, definition);
      }
    }
  }

  function fragmentsUsedBy(node: OperationDefinitionNode | FragmentDefinitionNode, found = new Map<string, FragmentDefinitionNode>()) {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment || found.has(name)) return;
        found.set(name, fragment);
        fragmentsUsedBy(fragment, found);
      },
    });
    return found;
  }

  const documents = new Map<string, DocumentNode>();
  const validated = new WeakMap<GraphQLSchema, Map<DocumentNode, readonly GraphQLError[]>>();
  return {
    document(name) {
      const known = documents.get(name);
      if (known) return known;
      const operation = operations.get(name);
      if (!operation) throw new ConfigError(`no operation named ${name} in ${dir} (there are: ${[...operations.keys()].join(', ')})`);
      const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsUsedBy(operation).values()] };
      documents.set(name, document);
      return document;
    },
    validate(schema, document) {
      const bySchema = validated.get(schema) ?? new Map<DocumentNode, readonly GraphQLError[]>();
      validated.set(schema, bySchema);
      const errors = bySchema.get(document) ?? validate(schema, document);
      bySchema.set(document, errors);
      return errors;
    },
  };
}
