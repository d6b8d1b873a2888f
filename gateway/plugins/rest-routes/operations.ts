// The named GraphQL operations behind the REST routes: every .graphql file of the operations
// folder, parsed once at start. Fragments are shared across files; each operation is given
// the fragments it uses, so it can be validated and compiled on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, visit, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { ConfigError } from '../../../lib/config-validation.ts';

export interface OperationLibrary {
  /** A document holding the named operation and the fragments it needs. */
  document(name: string): DocumentNode;
}

export function loadOperations(dir: string): OperationLibrary {
  const operations = new Map<string, OperationDefinitionNode>();
  const fragments = new Map<string, FragmentDefinitionNode>();
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.graphql')).sort();
  } catch (error) {
    throw new ConfigError(`operations folder ${dir} cannot be read: ${(error as Error).message}`);
  }
  for (const file of files) {
    let document: DocumentNode;
    try {
      document = parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      throw new ConfigError(`${join(dir, file)}: ${(error as Error).message}`);
    }
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) {
        const name = definition.name?.value;
        if (!name) throw new ConfigError(`${join(dir, file)}: every operation needs a name`);
        if (operations.has(name)) throw new ConfigError(`${join(dir, file)}: operation ${name} is defined twice`);
        operations.set(name, definition);
      } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        if (fragments.has(definition.name.value)) throw new ConfigError(`${join(dir, file)}: fragment ${definition.name.value} is defined twice`);
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

  return {
    document(name) {
      const operation = operations.get(name);
      if (!operation) throw new ConfigError(`no operation named ${name} in ${dir} (there are: ${[...operations.keys()].join(', ')})`);
      return { kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsUsedBy(operation).values()] };
    },
  };
}
