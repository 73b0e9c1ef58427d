// Prints the Pothos schema to schema/schema.graphql (committed; CI checks it is current).
import { writeFile } from 'node:fs/promises';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../schema/index.ts';

await writeFile(new URL('../schema/schema.graphql', import.meta.url), printSchema(lexicographicSortSchema(schema)) + '\n');
