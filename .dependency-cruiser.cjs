/**
 * The layer rules of ../shared/DESIGN.md, checked by `npm run lint` (dependency-cruiser).
 * Layers, top to bottom; a module may import its own layer or a lower one only:
 *   1. front-ends          src/cli, src/frontends, src/tour  (cli may import frontends and tour;
 *                          nothing else imports a front-end)
 *   2. composition root    src/gateway
 *   3. operations          src/operations
 *   4. service             src/service
 *   4b. (service floor)    src/graph: relationship queries built from service calls (call trees,
 *                          references, name resolution), so it sits beside the service
 *   5. index and transport src/catalog, src/cache, src/broker, src/chunks
 *                          (catalog is a pure index + store: no lsp, broker, cache, adapters, service)
 *   6. servers             src/lsp, src/adapters (adapters may import lsp, not the reverse)
 *   7. ground floor        src/schema, src/config, src/core, src/errors, src/util, src/light
 *                          (light: what the `lspgate` entry loads before it knows it needs more —
 *                          node builtins and each other only, see the light-* rules)
 * bench/ and test/ may import anything; src/ never imports them.
 * Type-only imports count (tsPreCompilationDeps): a contract on a high floor is an arrow up all the same.
 */
const FRONT = '^src/(cli|frontends|tour)/';
const GATEWAY = '^src/gateway/';
const OPERATIONS = '^src/operations/';
const SERVICE = '^src/(service|graph)/';
const INDEX = '^src/(catalog|cache|broker|chunks)/';
const SERVERS = '^src/(lsp|adapters)/';
const GROUND = '^src/(schema|config|core|errors|util|light)/';
const KNOWN = [FRONT, GATEWAY, OPERATIONS, SERVICE, INDEX, SERVERS, GROUND];

/** A rule forbidding `from` to import any of `above`. */
function below(name, from, above, comment) {
  return { name, severity: 'error', comment, from: { path: from }, to: { path: above } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-frontend',
      severity: 'error',
      comment: 'Front-ends are leaves: only src/cli may import src/frontends or src/tour, nothing imports src/cli.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/frontends/'] },
      to: { path: '^src/frontends/' },
    },
    {
      name: 'not-to-tour',
      severity: 'error',
      comment: 'Front-ends are leaves: only src/cli may import src/tour.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/tour/'] },
      to: { path: '^src/tour/' },
    },
    {
      name: 'not-to-cli',
      severity: 'error',
      comment: 'Front-ends are leaves: nothing outside src/cli imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    below('gateway-downward', GATEWAY, FRONT, 'The composition root builds on the layers below it, never on a front-end.'),
    below('operations-downward', OPERATIONS, [FRONT, GATEWAY], 'Operations see the service and lower layers; contracts they share live in src/core.'),
    below('service-downward', SERVICE, [FRONT, GATEWAY, OPERATIONS], 'The service must not reach back into operations or the composition root.'),
    below('index-downward', INDEX, [FRONT, GATEWAY, OPERATIONS, SERVICE], 'catalog/cache/broker sit below the service.'),
    below(
      'catalog-pure-index',
      '^src/catalog/',
      '^src/(lsp|broker|cache|adapters|service)/',
      'The catalog is a pure index + store: the service-level cataloger asks the servers and feeds it.',
    ),
    below('servers-downward', SERVERS, [FRONT, GATEWAY, OPERATIONS, SERVICE, INDEX], 'lsp/adapters sit below the broker and catalog.'),
    below('lsp-not-to-adapters', '^src/lsp/', '^src/adapters/', 'The LSP client is language-neutral; adapters build on it.'),
    {
      name: 'ground-floor-only',
      severity: 'error',
      comment: 'The ground floor (schema, config, core, errors, util) imports only the ground floor.',
      from: { path: GROUND },
      to: { path: '^src/', pathNot: GROUND },
    },
    {
      name: 'light-only-builtins',
      severity: 'error',
      comment:
        'src/light is what a thin client of the daemon loads: node builtins and other src/light modules only (a one-shot call through the daemon must not load the MCP SDK, zod or vscode-jsonrpc).',
      from: { path: '^src/light/' },
      to: { dependencyTypesNot: ['core'], pathNot: '^src/light/' },
    },
    {
      name: 'light-entry',
      severity: 'error',
      comment: 'The bin entry (src/cli/main.ts) imports node builtins and src/light only; the full CLI only by dynamic import().',
      from: { path: '^src/cli/main\\.ts$' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^src/light/', '^src/cli/full-main\\.ts$'] },
    },
    {
      name: 'light-entry-full-cli-dynamic',
      severity: 'error',
      comment: 'The bin entry loads the full CLI with import() only when the thin path does not apply.',
      from: { path: '^src/cli/main\\.ts$' },
      to: { path: '^src/cli/full-main\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'src-not-to-bench-or-test',
      severity: 'error',
      comment: 'Shipped code never depends on benchmarks or tests.',
      from: { path: '^src/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'src-dir-in-a-layer',
      severity: 'error',
      comment: 'Every folder of src/ belongs to a layer: name a new one in .dependency-cruiser.cjs so the rules see it.',
      from: { path: '^src/', pathNot: KNOWN },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/|^fixtures/.*/node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
      // Packages such as vscode-jsonrpc publish only an exports map (no "main").
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
