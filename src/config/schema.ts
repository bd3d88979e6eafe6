/**
 * servers.json: which language server serves which files, how to start it, how to know it is
 * ready, and how long to wait. The shipped file sits at the repo root; a user file
 * (`$XDG_CONFIG_HOME/lspgate/servers.json`) and a workspace file (`<root>/.lspgate/servers.json`)
 * are merged over it by `id` (see load.ts). servers.schema.json is generated from this for editors.
 */
import { z } from 'zod';

export const ReadinessSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('progress'),
    /** Ready when a `$/progress` whose begin title matches this regex ends (and no other is open). */
    titlePattern: z.string().optional(),
    /** If no progress begins within this many ms after initialized, the server counts as ready. */
    quietMs: z.number().int().nonnegative().default(1500),
    /**
     * The same wait after the first document is opened, when no matching progress was seen yet
     * (default: quietMs). typescript-language-server loads a project only once a file of it is
     * opened, and on a loaded machine its progress began >3 s after the didOpen: a short quiet
     * period declared it ready while it still answered from its syntax-only server.
     */
    openQuietMs: z.number().int().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal('notification'),
    /** Ready when this server→client notification arrives (e.g. intelephense `indexingEnded`). */
    method: z.string(),
    /** Optional notification that signals indexing started (readiness waits for the end). */
    startMethod: z.string().optional(),
    quietMs: z.number().int().nonnegative().default(3000),
  }),
  z.object({
    /** Ready when the first real request (documentSymbol on an opened file) answers. */
    kind: z.literal('first-reply'),
  }),
]);
export type Readiness = z.infer<typeof ReadinessSchema>;

export const TimeoutsSchema = z.object({
  /** Spawn + initialize must finish within this. */
  startMs: z.number().int().positive().default(30_000),
  /** Cold-start budget: how long an operation waits for indexing before answering `indexing`. */
  readyMs: z.number().int().positive().default(60_000),
  /** One LSP request. */
  requestMs: z.number().int().positive().default(30_000),
  /** shutdown + exit before the process tree is killed. */
  shutdownMs: z.number().int().positive().default(3_000),
  /**
   * A session unused for this long is shut down (0: the gateway's own setting — in the daemon its
   * session idle time, 10 min by default; in a process of its own never).
   */
  idleMs: z.number().int().nonnegative().default(0),
});

export const RestartSchema = z.object({
  maxCrashes: z.number().int().nonnegative().default(5),
  windowMs: z.number().int().positive().default(180_000),
  /** Consecutive request timeouts after which the server is killed and respawned. */
  maxConsecutiveTimeouts: z.number().int().positive().default(3),
});

export const ServerEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  description: z.string().optional(),
  /** Language ids (LSP languageId) this server handles, e.g. ["typescript","javascript"]. */
  languages: z.array(z.string()).min(1),
  /** File extensions with the dot, mapped to languageId by `languageIds` or the first language. */
  extensions: z.array(z.string().regex(/^\./)).min(1),
  languageIds: z.record(z.string(), z.string()).default({}),
  /**
   * Command: a bare name is resolved first as `node_modules/<package>/<binPath>` when `package`
   * and `binPath` are given (never through `.bin`, where two packages may claim one name), then
   * on PATH (plus `extraPath`).
   */
  command: z.string(),
  args: z.array(z.string()).default([]),
  package: z.string().optional(),
  binPath: z.string().optional(),
  /** Run `binPath` with the current Node (`process.execPath`) instead of as an executable. */
  node: z.boolean().default(false),
  extraPath: z.array(z.string()).default([]),
  /**
   * Other programs the server cannot work without, searched like `command` (extraPath + PATH).
   * gopls answers every request with "go command required" when `go` is missing: listing `go`
   * here turns that into SERVER_NOT_INSTALLED before the server is started.
   */
  requires: z.array(z.string()).default([]),
  /**
   * Programs the server runs from PATH when it has them, besides `requires` (pyright asks `python3`
   * or `python` for its search paths). With `requires` and the command, they decide whether two
   * clients of the shared daemon would get the same server: a client whose PATH finds another one
   * does not share the daemon's sessions.
   */
  runsPrograms: z.array(z.string()).default([]),
  /**
   * Environment variables the server reads that change its answers (gopls: GOFLAGS, GOPATH…; pyright:
   * VIRTUAL_ENV…). A client of the shared daemon with another value of one does not share its sessions;
   * variables no enabled server lists (and those its `env` sets) do not matter.
   */
  readsEnv: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  /**
   * Set over `env` only for a folder the user has not trusted: what the server must not do with a
   * repository's own instructions. gopls: `CGO_ENABLED=0`, because with cgo on, loading a package
   * that says `import "C"` runs `pkg-config` with the arguments its `#cgo pkg-config:` line chose,
   * and the C compiler on its preamble (the go command's own rules allow both); with it off, those
   * files are left out of the build as `cgo` build-constrained.
   */
  untrustedEnv: z.record(z.string(), z.string()).default({}),
  /**
   * Marker files for `rootStrategy: "nearest-marker"`: nearest first wins; order is priority within
   * one directory (go.work before go.mod).
   */
  rootMarkers: z.array(z.string()).default([]),
  /**
   * Root markers that name a set of projects (gopls: go.work): for `nearest-marker`, the nearest one
   * anywhere up the chain (inside the workspace) beats a nearer ordinary marker, as the language's
   * own tool finds it — the set is what the server must load to see references across projects.
   */
  workspaceMarkers: z.array(z.string()).default([]),
  /**
   * Where a session's root is. `workspace` (default): one server at the workspace root serves every
   * file of the workspace — tsserver loads each file's own tsconfig, gopls makes a view per module
   * (go.work or its zero-config views), pyright gets one execution environment per project; a
   * monorepo then runs one server, not one per package. `nearest-marker`: the nearest directory
   * at or above the file (never above the workspace root) holding one of `rootMarkers`, for a
   * server that only understands one project per process.
   */
  rootStrategy: z.enum(['workspace', 'nearest-marker']).default('workspace'),
  initializationOptions: z.record(z.string(), z.unknown()).default({}),
  /** Answers `workspace/configuration`: section lookups walk this object by dotted path. */
  settings: z.record(z.string(), z.unknown()).default({}),
  /**
   * Dotted path into `settings` of a list of exclude globs (intelephense: `intelephense.files.exclude`)
   * to which lspgate appends `<symlink>/**` for every directory symlink in the root when it starts
   * the server: a server that follows them indexes a symlink loop over and over and answers each
   * reference once per copy.
   */
  symlinkExcludeSetting: z.string().optional(),
  readiness: ReadinessSchema.default({ kind: 'first-reply' }),
  /**
   * A server that answers before it has found its project's files (pyright enumerates its include
   * paths in its first analysis pass; until then references and incoming calls search open files
   * only): requests whose answers span files wait, within their own timeout, for the
   * window/logMessage matching `logPattern` that ends that search, and fail NOT_READY without it.
   */
  workspaceScan: z.object({ logPattern: z.string() }).optional(),
  timeouts: TimeoutsSchema.default(TimeoutsSchema.parse({})),
  restart: RestartSchema.default(RestartSchema.parse({})),
  /**
   * Regexes over the command lines of the server's child processes it cannot answer without
   * (typescript-language-server's tsserver). Once the server is ready, the death of a matching
   * child counts as a crash of the server: it restarts, and no answer of it is used.
   */
  vitalChildren: z.array(z.string()).default([]),
  /**
   * The most catalog files (didOpen → documentSymbol → didClose) in flight at once at this server,
   * below limits.perServerConcurrency; the catalog adapts down from it on slow answers. A server that
   * answers one request at a time (tsserver) gains nothing from a deeper queue, and an interactive
   * request arriving meanwhile waits behind all of it. Default: limits.perServerConcurrency.
   */
  catalogConcurrency: z.number().int().min(1).optional(),
  /** Capabilities the server advertises but must not be used (known broken), by LSP provider name. */
  disabledCapabilities: z.array(z.string()).default([]),
  /**
   * The server offers pull diagnostics (`textDocument/diagnostic`) only to a client that registers
   * for them dynamically: lspgate says it does, and pulls. A pull answers once the server has checked
   * the file; a publish may be an earlier phase's (pyright publishes its parse-and-bind diagnostics,
   * often none, before the checker's — a file with an undefined name read as clean when the checker
   * took longer than the settle period).
   */
  pullDiagnostics: z.boolean().default(false),
  /**
   * The server's answers do not change when a file is merely opened with its on-disk content: it
   * loads the whole project from disk (tsserver, gopls, pyright). The response cache then keeps its
   * answers across such opens; any other server's answers may grow as files open (intelephense's
   * references went from 9 to 17), so each open starts a new cache epoch. A file outside the project
   * is loaded once open (tsserver's inferred project): opens that may be such (SyncOptions.widens) do too.
   */
  openInsensitive: z.boolean().default(false),
  /** Higher wins when two entries claim one extension; `enabled: false` drops an entry. */
  priority: z.number().int().default(0),
  enabled: z.boolean().default(true),
  /** Shown with SERVER_NOT_INSTALLED. */
  install: z.string(),
  /** Name of the adapter module in src/adapters (defaults to `generic`). */
  adapter: z.string().default('generic'),
});
export type ServerEntry = z.infer<typeof ServerEntrySchema>;
export type ServerEntryInput = z.input<typeof ServerEntrySchema>;

export const ServersFileSchema = z.object({
  $schema: z.string().optional(),
  servers: z.array(ServerEntrySchema),
});
/** Gateway-wide limits, overridable in `<root>/.lspgate/config.json` and env. */
export const LimitsSchema = z.object({
  maxFileBytes: z.number().int().positive().default(1_000_000),
  maxFiles: z.number().int().positive().default(5_000),
  maxResults: z.number().int().positive().default(200),
  maxResponseBytes: z.number().int().positive().default(2_000_000),
  maxQueryLength: z.number().int().positive().default(2_000),
  perServerConcurrency: z.number().int().positive().default(8),
  globalConcurrency: z.number().int().positive().default(32),
  cacheBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /**
   * Largest coverage file (lcov, Go coverprofile, coverage.py JSON, Clover/Cobertura XML) lspgate parses;
   * a larger one is not read, and the answer says so in `_meta.limits_hit`.
   */
  maxCoverageBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /**
   * Budget for the resident memory of all language-server process trees together, in MiB (0: none;
   * unset: half of the machine's memory). Over it, idle sessions are shut down least recently used
   * first; the next request for one starts it again.
   */
  serverMemoryMb: z.number().int().nonnegative().optional(),
  /**
   * How long the syntax tier may parse one file (in its worker, once the file is read and its grammar
   * loaded), in ms; over it the file is left out of the catalog with TIMEOUT and the rest is answered.
   */
  parseTimeoutMs: z.number().int().positive().default(20_000),
  /** Each syntax worker's heap cap in MiB; a file that needs more is left out with LIMIT_EXCEEDED. */
  parseHeapMb: z.number().int().min(16).default(512),
  /**
   * How long an edit's diagnostics delta waits for the server's answer on one file (before or after
   * the new text), in ms; past it the file is unchecked and an apply needs `accept_unchecked`.
   */
  deltaFileMs: z.number().int().positive().default(30_000),
});
export type Limits = z.infer<typeof LimitsSchema>;

/**
 * Which operations `lspgate mcp` lists as tools: the `core` profile, `default` (core plus the edit
 * operations; the default), `all`, or names.
 * Unknown names are checked against the operation table when the server starts (operations/profiles.ts).
 */
export const ToolsSettingSchema = z.union([z.enum(['core', 'default', 'all']), z.array(z.string().min(1)).min(1)]);
export type ToolsSetting = z.infer<typeof ToolsSettingSchema>;

/** `<root>/.lspgate/config.json` and `$XDG_CONFIG_HOME/lspgate/config.json`; config.schema.json is generated from this. */
export const ConfigFileSchema = z.object({
  $schema: z.string().optional(),
  limits: LimitsSchema.partial().optional(),
  tools: ToolsSettingSchema.optional().describe(
    'MCP tool profile: "core", "default" (the default: core plus the edit operations), "all" or a list of operation names',
  ),
  serverStart: z
    .enum(['after-syntax', 'on-demand'])
    .optional()
    .describe('When language servers start: once the syntax catalog is built (after-syntax, the default) or at the first question that needs one (on-demand)'),
  allowedRoots: z.array(z.string()).optional().describe('User config only: folders index_folder / index_repo may open besides the root'),
  trustedFolders: z
    .array(z.string())
    .optional()
    .describe(
      'User config only (`lspgate trust DIR` / `untrust DIR`): folders, with their subfolders, whose own .lspgate/servers.json may name programs, environments and paths and whose config.json may raise limits; elsewhere those settings are ignored with a warning',
    ),
});
