// Argument bounds, declared once in schema.graphql with @constraint and read from the schema by
// whoever enforces or documents them: the resolvers (arguments.ts) and the REST routes, whose
// parameter rules and OpenAPI document take the bounds of the argument each parameter fills.
import { Kind, type GraphQLArgument, type GraphQLResolveInfo } from 'graphql';

export interface ArgumentBounds {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
}

const BOUND_NAMES = new Set<string>(['min', 'max', 'minLength', 'maxLength'] satisfies (keyof ArgumentBounds)[]);
const read = new WeakMap<GraphQLArgument, ArgumentBounds>();

/** The @constraint bounds of an argument definition ({} when it has none). */
export function boundsOf(argument: GraphQLArgument): ArgumentBounds {
  let bounds = read.get(argument);
  if (!bounds) {
    bounds = {};
    const directive = argument.astNode?.directives?.find((node) => node.name.value === 'constraint');
    for (const { name, value } of directive?.arguments ?? []) {
      if (BOUND_NAMES.has(name.value) && value.kind === Kind.INT) bounds[name.value as keyof ArgumentBounds] = Number(value.value);
    }
    read.set(argument, bounds);
  }
  return bounds;
}

/** The definition of an argument of the field being resolved. */
export function argumentOf(info: GraphQLResolveInfo, name: string): GraphQLArgument {
  const argument = info.parentType.getFields()[info.fieldName]?.args.find((candidate) => candidate.name === name);
  if (!argument) throw new Error(`${info.parentType.name}.${info.fieldName} has no argument ${name}`);
  return argument;
}

/** What whole numbers within `min`..`max` are, as the end of a sentence: "page must be <this>". */
export function describeWholeNumber(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `a whole number from ${min} to ${max}`;
  if (min !== undefined) return `a whole number of at least ${min}`;
  if (max !== undefined) return `a whole number of at most ${max}`;
  return 'a whole number';
}
