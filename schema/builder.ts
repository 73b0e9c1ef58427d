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
  Scalars: { DateTime: { Input: Date; Output: Date | string }; Date: { Input: string; Output: Date | string }; JSON: { Input: unknown; Output: unknown }; Long: { Input: bigint; Output: bigint | number } };
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

// Date.parse rolls 2020-02-30 over to March 1st and accepts 2020-13-01 in some forms; a Date must
// name a day of the calendar, which its own ISO string then starts with.
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** A Date value as the graph answers it (the REST door's own answers too): its day, YYYY-MM-DD. */
export function calendarDay(value: unknown): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

builder.addScalarType(
  'Date',
  new GraphQLScalarType<string | null, string>({
    name: 'Date',
    description: 'A calendar date, YYYY-MM-DD',
    serialize: calendarDay,
    parseValue: (value) => {
      if (typeof value !== 'string' || !isCalendarDate(value)) throw new TypeError('expected a calendar date YYYY-MM-DD');
      return value;
    },
    parseLiteral: (ast) => (ast.kind === Kind.STRING && isCalendarDate(ast.value) ? ast.value : null),
  }),
);

builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'A JSON value: the structured record of a form or event, as documented per family',
    serialize: (value) => value,
    parseValue: (value) => value,
  }),
);

builder.addScalarType(
  'Long',
  new GraphQLScalarType<bigint | null, number>({
    name: 'Long',
    description: 'A whole number beyond 32 bits (amounts of millicents), exact up to 2^53',
    serialize: (value) => {
      const n = Number(value as bigint | number);
      if (!Number.isSafeInteger(n)) throw new TypeError('a Long is a whole number within 2^53');
      return n;
    },
    parseValue: (value) => {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError('a Long is a whole number within 2^53');
      return BigInt(value);
    },
    parseLiteral: (ast) => (ast.kind === Kind.INT ? BigInt(ast.value) : null),
  }),
);

builder.queryType({ description: 'Everything the service can answer.' });
builder.mutationType({ description: 'Changes to the caller\'s organization.' });
builder.subscriptionType({ description: 'Live events, delivered over graphql-ws on /graphql.' });
