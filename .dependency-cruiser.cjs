// The floors of the source, bottom to top (README "Architecture"). A module may import from its
// own floor and the floors below it, never from one above; no import circle anywhere.
// `npm run lint:layers` checks it, and CI runs that.
const floors = [
  { name: 'ground', path: '^core/' },
  { name: 'storage', path: '^prisma/' },
  { name: 'events', path: '^subscriptions/' },
  { name: 'parsers', path: '^ingest/parsers/' },
  { name: 'derived', path: '^derived/' },
  { name: 'ingest', path: '^ingest/(?!parsers/)' },
  { name: 'domain', path: '^resolvers/' },
  { name: 'graph', path: '^schema/' },
  { name: 'catalogue', path: '^catalogue/' },
  { name: 'doors', path: '^(rest|graphql|workers)/' },
  { name: 'composition', path: '^server/' },
];

const upward = floors.slice(0, -1).map((floor, i) => ({
  name: `${floor.name}-imports-upward`,
  comment: `${floor.name} (${floor.path}) may import only from its own floor and the ones below it`,
  severity: 'error',
  from: { path: floor.path },
  to: { path: floors.slice(i + 1).map((above) => above.path).join('|') },
}));

// The doors are side by side: each turns its protocol into a call of the pipeline and does not
// reach into another door.
const doors = ['rest', 'graphql', 'workers'].map((door) => ({
  name: `${door}-imports-another-door`,
  severity: 'error',
  from: { path: `^${door}/` },
  to: { path: `^(rest|graphql|workers)/`, pathNot: `^${door}/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    ...doors,
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    // The dashboard (dashboard/) is browser code, a floor of its own beside the others: it speaks
    // to the service over HTTP only (GraphQL and the sign-in routes), and nothing imports it.
    {
      name: 'dashboard-imports-the-service',
      comment: 'dashboard/ may import only itself and packages',
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { path: '^(core|prisma|subscriptions|ingest|derived|resolvers|schema|catalogue|rest|graphql|workers|server|scripts|test)/' },
    },
    {
      name: 'dashboard-imports-node',
      comment: 'dashboard/ runs in the browser: no Node built-ins',
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'service-imports-the-dashboard',
      comment: 'the service serves the dashboard\'s build, never its source',
      severity: 'error',
      from: { path: '^(?!dashboard/)' },
      to: { path: '^dashboard/' },
    },
    {
      name: 'source-imports-tests-or-scripts',
      severity: 'error',
      from: { path: '^(core|prisma|subscriptions|ingest|derived|resolvers|schema|catalogue|rest|graphql|workers|server)/' },
      to: { path: '^(test|scripts)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)node_modules/|^prisma/generated/' },
    doNotFollow: { path: 'node_modules' },
  },
};
