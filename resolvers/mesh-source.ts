// The catalogue schema as GraphQL Mesh's source (.meshrc.yaml: sources[0], `graphql` handler).
import { createCatalogueSchema } from './schema.ts';

export const schema = createCatalogueSchema();
export default schema;
