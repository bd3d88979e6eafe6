/**
 * `lspgate --help` and `lspgate daemon --help` (node builtins only: the thin entry prints them
 * without loading the operations; the full CLI prints the same). The operations' part comes from
 * the table (tools.ts reads its generated copy).
 */

export interface HelpEntry {
  name: string;
  title: string;
  /** REPL dot-command, without the dot. */
  repl?: string;
}

export function mainHelp(ops: readonly HelpEntry[], version: string): string {
  const width = Math.max(12, ...ops.map((o) => o.name.length)) + 2;
  return [
    `lspgate ${version}: code intelligence from real language servers`,
    '',
    'Usage:',
    '  lspgate mcp [--root DIR] [--servers FILE]               MCP over stdio',
    '      [--tools core|default|all|name,...]                 tool profile (stdio and --http; default: default, or "tools" in config)',
    '  lspgate mcp --http [--port N] [--root DIR]              MCP Streamable HTTP on 127.0.0.1 (bearer token)',
    '      [--stateless] [--session-idle-ms N]                 no sessions / end sessions idle this long (30 min)',
    '      [--max-sessions N]                                  sessions open at once; the least recently used closes (32)',
    '      [--handshake-ms N]                                  close a session not past its handshake this long after initialize (10 s)',
    '  lspgate sidecar [--root DIR]                            JSON-RPC 2.0 over stdio (Content-Length framing)',
    '  lspgate repl [--root DIR]                               interactive; .help lists commands',
    '  lspgate tour [--root DIR]                               every operation on a workspace, for a person',
    '  lspgate servers [--root DIR] [--json]                   configured language servers and whether installed',
    '  lspgate daemon [status|stop] [--idle-ms N] [--server-idle-ms N] [--json]  the shared daemon: run it / status / stop it',
    '  lspgate recover [--root DIR | --all] [--json]           complete or roll back edits a crash interrupted',
    "  lspgate trust DIR | untrust DIR                         let a folder's .lspgate config run programs (or stop it)",
    '  lspgate publish --to <postgres-url> [--root DIR]        write the workspace index at git HEAD into PostgreSQL for a team',
    '  lspgate <operation> [--root DIR] [--<field> value ...] [--json]',
    '  lspgate <operation> --help                              the fields of one operation',
    '  lspgate --version',
    '',
    'Common flags: --root DIR (workspace, default: current directory), --servers FILE (extra servers.json, repeatable),',
    '  --json (structured result instead of markdown), --daemon auto|off|require (attach to the shared daemon; default auto),',
    '  --index <postgres-url> (take the published index of this repository first; env LSPGATE_INDEX; runs in-process).',
    '  mcp, sidecar, repl and daemon: --server-start after-syntax|on-demand (start language servers once the syntax catalog is',
    '  built, the default, or only at the first question that needs one; env LSPGATE_SERVER_START, config.json "serverStart").',
    '  A one-shot operation answered in its own process (--daemon off) starts servers on demand unless one of those says.',
    '  --flow-corpus FILE (curated flows, JSONL; default <root>/.lspgate/corpus.jsonl), --policy FILE (path categories and',
    '  guidance, JSON; default <root>/.lspgate/policy.json): shown in search_code, get_context and edit previews.',
    '  Env: LSPGATE_CACHE_DIR, LSPGATE_LOG=debug|info|warn|error, LSPGATE_TOKEN, LSPGATE_DAEMON, LSPGATE_DAEMON_IDLE_MS, LSPGATE_CODE_CACHE=off,',
    '  LSPGATE_BUNDLE=off (load the full CLI from its modules, not the bundle).',
    '',
    'Operations:',
    ...ops.map((o) => `  ${o.name.padEnd(width)}${o.title}${o.repl ? `  (repl .${o.repl})` : ''}`),
    '',
    'Exit status: 0 success, 2 invalid input or usage, 1 any other error (the code is printed on stderr).',
  ].join('\n');
}

export const DAEMON_HELP = [
  'lspgate daemon [--idle-ms N] [--server-idle-ms N] [--server-start after-syntax|on-demand] [--flow-corpus FILE] [--policy FILE]',
  '                                 run the shared daemon in the foreground: it exits after --idle-ms without clients (default 600000),',
  '                                 and stops a language server nobody used for --server-idle-ms (default 600000; 0: never)',
  'lspgate daemon status [--json]   clients, language-server sessions (state, memory) and workspaces of the running daemon',
  'lspgate daemon stop              stop the running daemon (its servers with it)',
].join('\n');
