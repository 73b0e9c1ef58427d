// `npm run graphql:costs`: the GraphQL cost (graphql/cost.ts) of every persisted operation,
// at the largest page it may ask for, heaviest first, against the per-request maximum; and the cost
// of the attack that motivated pricing (60 aliases of a 40-period quarterly statement).
import { readFile, readdir } from 'node:fs/promises';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { schema } from '../schema/index.ts';
import { loadConfig } from '../core/config.ts';
import { measureDocument } from '../graphql/cost.ts';

const folder = new URL('../catalogue/operations/', import.meta.url);
const files = (await readdir(folder)).filter((f) => f.endsWith('.graphql'));
const document = parse((await Promise.all(files.map((f) => readFile(new URL(f, folder), 'utf8')))).join('\n'));
const largest: Record<string, number> = { limit: 100, first: 100, last: 100 };

const rows = document.definitions
  .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
  .map((operation) => {
    const variables = Object.fromEntries((operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, largest[v.variable.name.value] ?? null]));
    if (operation.name?.value === 'Statements') variables.limit = 40; // its largest
    return { name: operation.name!.value, ...measureDocument(schema, document, variables, operation.name!.value) };
  })
  .sort((a, b) => b.cost - a.cost);

const maxCost = loadConfig().graphqlMaxCost;
console.log(`per-request maximum (IDS_GRAPHQL_MAX_COST): ${maxCost.toLocaleString('en-US')}\n`);
console.log(`${'persisted operation'.padEnd(22)} ${'cost'.padStart(7)} ${'depth'.padStart(6)}`);
for (const row of rows) console.log(`${row.name.padEnd(22)} ${row.cost.toLocaleString('en-US').padStart(7)} ${String(row.depth).padStart(6)}`);

const attack = parse(`{ ${Array.from({ length: 60 }, (_, i) => `s${i}: statements(ticker: "AAPL", period: "quarterly", limit: 40) { periods { periodEnd incomeStatement { key value } } }`).join(' ')} }`);
console.log(`\n60 aliases of statements(period: quarterly, limit: 40): ${measureDocument(schema, attack, {}).cost.toLocaleString('en-US')}`);
