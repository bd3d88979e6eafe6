/**
 * The layer rules of ../shared/DESIGN.md, checked by `npm run lint` (dependency-cruiser).
 * Layers, top to bottom; a module may import its own layer or a lower one only:
 *   1. entry and hosts     src/cli (the `lspgate` command; src/cli/thin: the daemon's thin client),
 *                          src/daemon (the shared daemon, hosting front-ends for its clients),
 *                          src/frontends (MCP, sidecar, REPL, one-shot; attaching to the daemon),
 *                          src/tour. Only src/cli imports src/daemon and src/tour; only src/cli and
 *                          src/daemon import src/frontends; nothing imports src/cli.
 *   2. composition root    src/gateway
 *   3. operations          src/operations
 *   4. analysis            src/analysis: relationships, impact, reports, patterns, diagrams, built
 *                          from service calls (call trees, references, name resolution)
 *   5. service             src/service
 *   6. index and transport src/catalog, src/cache, src/broker, src/chunks, src/store (the workspace database)
 *                          (catalog is a pure index + store: no lsp, broker, cache, adapters, service)
 *   7. servers and syntax  src/lsp, src/adapters, src/syntax (adapters may import lsp and syntax;
 *                          lsp and syntax import neither adapters nor each other)
 *   8. ground floor        src/schema, src/config, src/core, src/errors, src/util, src/link
 *                          (link: where this user's daemon lives and how to reach it, start it and
 *                          frame its messages — node builtins only, so the thin client may load it)
 * bench/ and test/ may import anything; src/ never imports them.
 * Type-only imports count (tsPreCompilationDeps): a contract on a high floor is an arrow up all the same.
 */
const FRONT = '^src/(cli|daemon|frontends|tour)/';
const GATEWAY = '^src/gateway/';
const OPERATIONS = '^src/operations/';
const ANALYSIS = '^src/analysis/';
const SERVICE = '^src/service/';
const INDEX = '^src/(catalog|cache|broker|chunks|store)/';
const SERVERS = '^src/(lsp|adapters|syntax)/';
const GROUND = '^src/(schema|config|core|errors|util|link)/';
const KNOWN = [FRONT, GATEWAY, OPERATIONS, ANALYSIS, SERVICE, INDEX, SERVERS, GROUND];

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
      comment: 'Front-ends are leaves: only src/cli and the daemon that hosts them import src/frontends.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/daemon/', '^src/frontends/'] },
      to: { path: '^src/frontends/' },
    },
    {
      name: 'not-to-daemon',
      severity: 'error',
      comment: 'The daemon is a host started by the CLI: only src/cli imports it (front-ends reach it through src/frontends/daemon-client).',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/daemon/'] },
      to: { path: '^src/daemon/' },
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
    below('analysis-downward', ANALYSIS, [FRONT, GATEWAY, OPERATIONS], 'Analyses are built on the service; operations call them.'),
    below(
      'service-downward',
      SERVICE,
      [FRONT, GATEWAY, OPERATIONS, ANALYSIS],
      'The service must not reach back into analyses, operations or the composition root.',
    ),
    below('index-downward', INDEX, [FRONT, GATEWAY, OPERATIONS, ANALYSIS, SERVICE], 'catalog/cache/broker sit below the service.'),
    below(
      'catalog-pure-index',
      '^src/catalog/',
      '^src/(lsp|broker|cache|adapters|service)/',
      'The catalog is a pure index + store: the service-level cataloger asks the servers and feeds it.',
    ),
    below('servers-downward', SERVERS, [FRONT, GATEWAY, OPERATIONS, ANALYSIS, SERVICE, INDEX], 'lsp/adapters/syntax sit below the broker and catalog.'),
    below('lsp-not-to-adapters', '^src/lsp/', '^src/(adapters|syntax)/', 'The LSP client is language-neutral; adapters build on it.'),
    below(
      'syntax-not-to-adapters',
      '^src/syntax/',
      '^src/(adapters|lsp)/',
      'The syntax layer is language-neutral machinery; adapters bring the grammars and queries.',
    ),
    {
      name: 'ground-floor-only',
      severity: 'error',
      comment: 'The ground floor (schema, config, core, errors, util) imports only the ground floor.',
      from: { path: GROUND },
      to: { path: '^src/', pathNot: GROUND },
    },
    {
      name: 'link-only-builtins',
      severity: 'error',
      comment: 'src/link is loaded by the thin client before anything else: node builtins and other src/link modules only.',
      from: { path: '^src/link/' },
      to: { dependencyTypesNot: ['core'], pathNot: '^src/link/' },
    },
    {
      name: 'thin-only-builtins',
      severity: 'error',
      comment:
        'src/cli/thin is what a thin client of the daemon loads: node builtins, src/link and itself only (a one-shot call through the daemon must not load the MCP SDK, zod or vscode-jsonrpc).',
      from: { path: '^src/cli/thin/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^src/cli/thin/', '^src/link/'] },
    },
    {
      name: 'thin-entry',
      severity: 'error',
      comment: 'The bin entry (src/cli/main.ts) imports node builtins, src/cli/thin and src/link only; the full CLI only by dynamic import().',
      from: { path: '^src/cli/main\\.ts$' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^src/cli/thin/', '^src/link/', '^src/cli/full-main\\.ts$'] },
    },
    {
      name: 'thin-entry-full-cli-dynamic',
      severity: 'error',
      comment: 'The bin entry loads the full CLI with import() only when the thin path does not apply.',
      from: { path: '^src/cli/main\\.ts$' },
      to: { path: '^src/cli/full-main\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'renderers-read-contracts',
      severity: 'error',
      comment:
        "A renderer (src/operations/render) is typed by the operation's contract (src/operations/contracts), what the operation promises, not by the service's own result types.",
      from: { path: '^src/operations/render/' },
      to: { path: '^src/service/' },
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
