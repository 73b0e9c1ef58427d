// Each root field of a query or mutation resolves inside a span of the traced request: where the
// executor's time goes, field by field, without a span for every value of every list.
import type { GraphQLSchema } from 'graphql';
import { inSpan } from '../core/tracing.ts';

export function spanRootFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const resolve = field.resolve;
      if (!resolve) continue;
      const name = `resolve ${type!.name}.${field.name}`;
      const attributes = { 'graphql.field.path': field.name, 'graphql.field.type': String(field.type) };
      field.resolve = (root, args, ctx, info) => inSpan(name, attributes, () => resolve(root, args, ctx, info));
    }
  }
  return schema;
}
