// The one Pothos builder. Prisma-backed types come from @pothos/plugin-prisma; lists that page
// are Relay connections; per-row lookups that are not relations go through DataLoaders.
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import { GraphQLScalarType, Kind } from 'graphql';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';
import type { Context } from '../resolvers/context.ts';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
}>({
  plugins: [PrismaPlugin, RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  prisma: { client: (ctx) => ctx.prisma, dmmf: getDatamodel(), exposeDescriptions: true, filterConnectionTotalCount: true },
  relay: { clientMutationId: 'omit', cursorType: 'String', nodesOnConnection: true },
});

builder.addScalarType(
  'DateTime',
  new GraphQLScalarType<Date | null, string>({
    name: 'DateTime',
    description: 'A UTC instant in ISO-8601, e.g. 2026-11-22T08:00:00.000Z',
    serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
    parseValue: (value) => new Date(value as string),
    parseLiteral: (ast) => (ast.kind === Kind.STRING ? new Date(ast.value) : null),
  }),
);

builder.queryType({ description: 'Everything the service can answer.' });
builder.mutationType({ description: 'Changes to the caller\'s organization.' });
builder.subscriptionType({ description: 'Live events, delivered over graphql-ws on /graphql.' });
