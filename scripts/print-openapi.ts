// Writes the OpenAPI snapshot from the route table (committed; CI checks it is current).
import { writeFile } from 'node:fs/promises';
import { buildOpenApi } from '../rest/openapi.ts';
import { routes } from '../catalogue/routes/index.ts';

await writeFile(new URL('../rest/sec-api.v1.json', import.meta.url), JSON.stringify(buildOpenApi(routes), null, 2) + '\n');
