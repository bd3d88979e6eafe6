// Driver of scripts/try-real-ts-repo.sh (read the header there). Argument: the repository root.
// Everything lspgate answers comes from the built CLI as a child process; the "raw" column comes from
// an in-process Gateway's broker session (the same typescript-language-server, asked directly).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest, DefinitionRequest, ReferencesRequest } from 'vscode-languageserver-protocol';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(HERE, 'dist/src/cli/main.js');
const ROOT = fs.realpathSync(process.argv[2]);
const WORK = path.dirname(ROOT);
const { Gateway } = await import(pathToFileURL(path.join(HERE, 'dist/src/gateway/gateway.js')).href);
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true };

// ---------------------------------------------------------------------------------------------
// Summary rows
const rows = [];
function row(what, lspgate, raw, note = '', same = raw === undefined ? undefined : String(lspgate) === String(raw)) {
  rows.push({ what, lspgate: String(lspgate), raw: raw === undefined ? '-' : String(raw), ok: same === undefined ? '' : same ? 'same' : 'DIFF', note });
  console.error(`· ${what}: ${lspgate}${raw === undefined ? '' : ` | raw ${raw}`} ${note}`);
}
function check(what, ok, detail = '') {
  row(what, ok ? 'ok' : `FAILED ${detail}`, undefined, ok ? detail : '');
}
const ms = (t0) => `${Date.now() - t0} ms`;

// ---------------------------------------------------------------------------------------------
// Process trees: every descendant of lspgate seen while it ran must be gone after it exits.
function stat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const after = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, state: after[0], ppid: Number(after[1]) };
  } catch {
    return undefined;
  }
}
function descendants(pid) {
  const stats = fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => stat(Number(n)))
    .filter(Boolean);
  const found = new Set();
  const frontier = [pid];
  while (frontier.length) {
    const p = frontier.pop();
    for (const s of stats) if (s.ppid === p && !found.has(s.pid)) (found.add(s.pid), frontier.push(s.pid));
  }
  return [...found];
}
const alive = (pid) => {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
};
/** Polls the tree of `pid` until stopped; `gone()` waits (bounded) and returns the survivors. */
function watchTree(pid) {
  const seen = new Set();
  const timer = setInterval(() => descendants(pid).forEach((p) => seen.add(p)), 200);
  return {
    seen,
    async gone(limitMs = 20_000) {
      clearInterval(timer);
      const until = Date.now() + limitMs;
      while ([...seen].some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      return [...seen].filter(alive);
    },
  };
}
function env(cacheDir, extra = {}) {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string')), LSPGATE_CACHE_DIR: cacheDir, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Comparison helpers
const rel = (uri) => path.relative(ROOT, fileURLToPath(uri)).split(path.sep).join('/');
const inside = (uri) => fileURLToPath(uri).startsWith(ROOT + path.sep);
const locKey = (file, line, column) => `${file}:${line}:${column}`;
function rawLocs(list) {
  const all = [].concat(list ?? []).map((l) => ({ uri: l.targetUri ?? l.uri, range: l.targetSelectionRange ?? l.range }));
  return [...new Set(all.filter((l) => inside(l.uri)).map((l) => locKey(rel(l.uri), l.range.start.line + 1, l.range.start.character + 1)))].sort();
}
/** The structured result without what differs between runs (timing, savings counters). */
function stable(r) {
  const { _meta, ...rest } = r ?? {};
  return JSON.stringify(rest);
}

// ---------------------------------------------------------------------------------------------
// Front-ends
async function mcpStart(cacheDir) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--tools', 'all', '--root', ROOT],
    env: env(cacheDir),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'try-real-ts-repo', version: '0' });
  await client.connect(transport);
  const tree = watchTree(transport.pid);
  const call = async (name, args, onprogress) => {
    const r = await client.callTool({ name, arguments: args }, { ...LONG, ...(onprogress ? { onprogress } : {}) });
    if (r.isError)
      return {
        error: (r.content ?? [])
          .map((c) => c.text)
          .join('')
          .slice(0, 300),
      };
    return r.structuredContent;
  };
  return { client, transport, tree, call, stderr: () => stderr };
}

function sidecarStart(cacheDir) {
  const child = spawn(process.execPath, [CLI, 'sidecar', '--root', ROOT], { env: env(cacheDir), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  conn.listen();
  const tree = watchTree(child.pid);
  const call = async (name, args) => {
    try {
      return await conn.sendRequest(name, args);
    } catch (e) {
      return { error: `${e.data?.code ?? e.code}: ${e.message}` };
    }
  };
  return { child, conn, tree, call, exited };
}

function runProcess(args, cacheDir, input = '') {
  const child = spawn(process.execPath, [CLI, ...args], { env: env(cacheDir), stdio: ['pipe', 'pipe', 'pipe'] });
  const tree = watchTree(child.pid);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('exit', async (code) => resolve({ code, out, err, left: await tree.gone() })));
}

async function oneShot(cacheDir, op, args) {
  const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  const r = await runProcess([op, '--root', ROOT, '--json', ...flags], cacheDir);
  let result;
  try {
    result = r.code === 0 ? JSON.parse(r.out) : { error: r.err.trim().split('\n')[0] };
  } catch {
    result = { error: `unparsable output: ${r.out.slice(0, 200)}` };
  }
  return { result, left: r.left };
}

// ---------------------------------------------------------------------------------------------
// What is asked (real names of zod's sources)
const TYPES = [
  { type_name: 'ZodError', kind: 'class' }, // src/v3/ZodError.ts
  { type_name: '$ZodRegistry' }, // src/v4/core/registries.ts (generic class)
  { type_name: 'ParseStatus' }, // src/v3/helpers/parseUtil.ts (static methods)
];
const REFS = ['addIssueToContext', 'ParseStatus.mergeObjectSync', '$ZodRegistry', '$ZodRegistry.add', 'jsonStringifyReplacer'];
const CALLERS = ['addIssueToContext', 'ParseStatus.mergeObjectSync', '$ZodRegistry.add'];
/** The same questions for the sidecar / one-shot comparison. */
const SAME = [
  ['find_type_definition', { type_name: 'ZodError', kind: 'class' }],
  ['find_definition', { symbol: 'ParseStatus.mergeObjectSync' }],
  ['find_references', { symbol: 'addIssueToContext', max_results: 5000 }],
  ['find_callers', { symbol: '$ZodRegistry.add' }],
  ['get_file_outline', { file: 'src/v4/core/registries.ts' }],
  ['search_symbols', { query: 'mergeObject', max_results: 10 }],
];

// ---------------------------------------------------------------------------------------------
async function main() {
  const cacheA = fs.mkdtempSync(path.join(WORK, 'cache-a-'));
  const rawCache = fs.mkdtempSync(path.join(WORK, 'cache-raw-'));
  const files = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }).filter((f) => f.endsWith('.ts')).length;
  row(
    'repository',
    `${files} .ts files under src/ (zod ${JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules/zod/package.json'), 'utf8')).version})`,
    undefined,
  );

  // ---- 1. MCP ------------------------------------------------------------------------------
  let t0 = Date.now();
  const mcp = await mcpStart(cacheA);
  const tools = (await mcp.client.listTools()).tools.map((t) => t.name);
  const wanted = [
    'find_type_definition',
    'get_function_details',
    'list_package_exports',
    'get_file_outline',
    'find_definition',
    'find_references',
    'find_callers',
    'find_callees',
    'search_symbols',
    'open_at',
    'list_workspaces',
    'index_folder',
    'get_repo_outline',
    'get_symbol',
  ];
  const missing = wanted.filter((w) => !tools.includes(w));
  row('mcp tools/list', `${tools.length} tools${missing.length ? `, MISSING ${missing.join(',')}` : ', all expected present'}`, undefined, ms(t0));

  t0 = Date.now();
  const progress = [];
  const idx = await mcp.call('index_folder', { path: ROOT }, (p) => progress.push(p));
  const last = progress[progress.length - 1];
  row(
    'index_folder',
    idx.error ??
      `files=${idx.files ?? idx.file_count ?? '?'} symbols=${idx.symbols ?? idx.symbol_count ?? '?'} progress notifications=${progress.length}${last ? ` (last ${last.progress}/${last.total})` : ''}`,
    undefined,
    ms(t0),
  );

  t0 = Date.now();
  const outline = await mcp.call('get_repo_outline', {});
  const dirs = outline.directories ?? [];
  row(
    'get_repo_outline',
    outline.error ??
      `${dirs.length} directories, languages=${JSON.stringify(outline.languages ?? {})}, kinds=${Object.keys(outline.symbol_kinds ?? outline.kinds ?? {}).length}`,
    undefined,
    ms(t0),
  );

  t0 = Date.now();
  const fo = await mcp.call('get_file_outline', { file: 'src/v3/ZodError.ts' });
  const zodErrorNode = (fo.symbols ?? []).find((s) => s.name === 'ZodError' && s.kind === 'class');
  const expectMembers = [
    'issues',
    'errors',
    'constructor',
    'format',
    'create',
    'assert',
    'toString',
    'message',
    'isEmpty',
    'addIssue',
    'addIssues',
    'flatten',
    'formErrors',
  ];
  const got = (zodErrorNode?.children ?? []).map((c) => c.name);
  const missingMembers = expectMembers.filter((m) => !got.includes(m));
  check(
    'get_file_outline src/v3/ZodError.ts: class ZodError with its 13 members',
    !fo.error && zodErrorNode && missingMembers.length === 0,
    fo.error ?? `missing ${missingMembers.join(',')}; ${fo.symbols?.length} top-level symbols, ${ms(t0)}`,
  );

  t0 = Date.now();
  const ss = await mcp.call('search_symbols', { query: 'ZodError', max_results: 10 });
  const hits = ss.symbols ?? ss.results ?? [];
  row(
    'search_symbols ZodError',
    ss.error ??
      `${hits.length} hits: ${hits
        .slice(0, 4)
        .map((h) => `${h.qualified_name ?? h.name}(${h.kind})`)
        .join(', ')}`,
    undefined,
    ms(t0),
  );
  const zodErrorId = hits.find((h) => h.file === 'src/v3/ZodError.ts' && h.kind === 'class')?.symbol_id;
  check('search_symbols ranks the class ZodError in the top 10', Boolean(zodErrorId), zodErrorId ?? '');

  if (zodErrorId) {
    const gs = await mcp.call('get_symbol', { symbol_id: zodErrorId, verify: true });
    const text = fs.readFileSync(path.join(ROOT, 'src/v3/ZodError.ts'), 'utf8');
    const startAt = text.indexOf('export class ZodError');
    const expected = text.slice(startAt, text.indexOf('\n}\n', startAt) + 2);
    const src = gs.source ?? gs.code ?? '';
    check(
      'get_symbol verify:true returns the exact class source',
      !gs.error && gs._meta?.content_verified === true && src.trim() === expected.trim(),
      gs.error ?? `verified=${gs._meta?.content_verified} ${src.length} chars vs ${expected.length}`,
    );
  }

  // Descriptors
  for (const t of TYPES) {
    t0 = Date.now();
    const d = await mcp.call('find_type_definition', t);
    row(
      `find_type_definition ${t.type_name}`,
      d.error ??
        `${d.kind} ${d.name} @${d.location?.file_path}:${d.location?.start_line} fields=${d.fields?.length ?? 0} methods=${d.methods?.length ?? 0} relations=${(d.relations ?? []).map((r) => `${r.type}:${r.target}`).join(',')}`,
      undefined,
      ms(t0),
    );
  }

  // ---- raw typescript-language-server, same positions ---------------------------------------
  const gw = await Gateway.create({ root: ROOT, cacheDir: rawCache });
  const rawSession = async (file) => {
    const abs = path.join(ROOT, file);
    const s = await gw.context.broker.sessionFor(abs, ROOT);
    await s.syncDocument(abs);
    await s.waitReady();
    return { s, uri: pathToFileURL(abs).href };
  };
  try {
    for (const sym of REFS) {
      const def = await mcp.call('find_definition', { symbol: sym });
      const d = def.definitions?.[0];
      if (!d) {
        row(`find_references ${sym}`, def.error ?? 'no definition', undefined);
        continue;
      }
      const { s, uri } = await rawSession(d.file);
      const position = { line: d.line - 1, character: d.column - 1 };
      const rawDef = rawLocs(await s.request(DefinitionRequest.type, { textDocument: { uri }, position }));
      row(
        `find_definition ${sym}`,
        `${d.file}:${d.line}:${d.column}`,
        rawDef.join(' '),
        '(raw: definition at that name)',
        rawDef.includes(locKey(d.file, d.line, d.column)),
      );
      // Each side has its own server: the raw one asked first (its first time for this symbol), then
      // lspgate; the raw times in the table are this first ask.
      const t1 = Date.now();
      const rawFirst = rawLocs(await s.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }));
      const rawTook = ms(t1);
      t0 = Date.now();
      const lr = await mcp.call('find_references', { symbol: sym, max_results: 5000 });
      const took = ms(t0);
      // Asked again after lspgate's call: a fresh raw session may still answer from tsserver's
      // syntax server (see the note on the first answer when it differs).
      let raw = rawLocs(await s.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }));
      if (raw.length !== (lr.total ?? -1)) {
        // Still loading? Give the raw server time to begin and end its project load, then ask again.
        await new Promise((r) => setTimeout(r, 5000));
        await s.waitReady();
        raw = rawLocs(await s.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }));
      }
      if (rawFirst.length !== raw.length)
        row(
          `  raw first answer for ${sym}`,
          `raw ${rawFirst.length}`,
          undefined,
          'fresh raw session, asked after waitReady() said ready: tsserver had not loaded the project',
        );
      const mine = [...new Set((lr.references ?? []).filter((r) => !r.external).map((r) => locKey(r.file, r.line, r.column)))].sort();
      const onlyMine = mine.filter((k) => !raw.includes(k));
      const onlyRaw = raw.filter((k) => !mine.includes(k));
      row(
        `find_references ${sym}`,
        lr.error ?? `${lr.total} (${mine.length} unique in repo)`,
        raw.length,
        `${took} vs raw ${rawTook}${onlyMine.length || onlyRaw.length ? ` only-lspgate=${onlyMine.slice(0, 3)} only-raw=${onlyRaw.slice(0, 3)}` : ''}`,
        !lr.error && onlyMine.length === 0 && onlyRaw.length === 0 && lr.total === raw.length,
      );
      // Definition asked from use sites (other files first): lspgate vs raw.
      const uses = raw
        .filter((k) => k !== locKey(d.file, d.line, d.column))
        .sort((a, b) => Number(a.startsWith(d.file)) - Number(b.startsWith(d.file)))
        .slice(0, 2);
      for (const use of uses) {
        const [file, line, column] = use.split(':');
        const at = await rawSession(file);
        const rd = rawLocs(
          await at.s.request(DefinitionRequest.type, { textDocument: { uri: at.uri }, position: { line: Number(line) - 1, character: Number(column) - 1 } }),
        );
        const ld = await mcp.call('find_definition', { file, line: Number(line), column: Number(column) });
        const mineDef = [...new Set((ld.definitions ?? []).map((x) => locKey(x.file, x.line, x.column)))].sort();
        row(`find_definition at ${use}`, ld.error ?? mineDef.join(' '), rd.join(' '));
      }
    }
    for (const sym of CALLERS) {
      t0 = Date.now();
      const lc = await mcp.call('find_callers', { symbol: sym, max_results: 1000 });
      const took = ms(t0);
      const d = (await mcp.call('find_definition', { symbol: sym })).definitions?.[0];
      const { s, uri } = await rawSession(d.file);
      const [item] =
        (await s.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position: { line: d.line - 1, character: d.column - 1 } })) ?? [];
      const inc = item ? ((await s.request(CallHierarchyIncomingCallsRequest.type, { item })) ?? []).filter((c) => inside(c.from.uri)) : [];
      const rawCallers = [...new Set(inc.map((c) => `${rel(c.from.uri)}:${c.from.selectionRange.start.line + 1}`))].sort();
      const rawSites = new Set(inc.flatMap((c) => c.fromRanges.map((r) => `${c.from.uri}:${r.start.line}:${r.start.character}`))).size;
      const calls = lc.root?.calls ?? [];
      const mineCallers = [...new Set(calls.map((c) => `${c.file}:${c.line}`))].sort();
      const sites = calls.reduce((n, c) => n + (c.call_sites?.length ?? 0), 0);
      row(
        `find_callers ${sym}`,
        lc.error ??
          `${mineCallers.length} callers / ${sites} sites: ${calls
            .slice(0, 3)
            .map((c) => c.name)
            .join(', ')}`,
        `${rawCallers.length} callers / ${rawSites} sites`,
        took,
        !lc.error && JSON.stringify(mineCallers) === JSON.stringify(rawCallers) && sites === rawSites,
      );
    }

    // ---- 2. sidecar and one-shot give the same structured results -----------------------------
    const mcpAnswers = [];
    for (const [op, args] of SAME) mcpAnswers.push(await mcp.call(op, args));
    t0 = Date.now();
    const side = sidecarStart(cacheA);
    await side.conn.sendRequest('initialize', {});
    for (const [i, [op, args]] of SAME.entries()) {
      const r = await side.call(op, args);
      row(`sidecar ${op} == mcp`, r.error ?? (stable(r) === stable(mcpAnswers[i]) ? 'same' : 'DIFFERENT'), undefined, `${stable(r).length} chars`);
    }
    await side.conn.sendRequest('shutdown');
    side.conn.sendNotification('exit');
    const sideExit = await side.exited;
    const sideLeft = await side.tree.gone();
    check(
      'sidecar shutdown+exit: no process left',
      sideLeft.length === 0,
      `exit ${sideExit.code}, ${side.tree.seen.size} descendants seen, ${sideLeft.length} left ${sideLeft.join(',')} (${ms(t0)})`,
    );
    side.conn.dispose();

    for (const [i, [op, args]] of SAME.entries()) {
      t0 = Date.now();
      const { result, left } = await oneShot(cacheA, op, args);
      const differs = stable(result) !== stable(mcpAnswers[i]);
      const why =
        differs && !result.error
          ? ` (one-shot: total=${result.total ?? '-'} index_state=${result._meta?.index_state} warnings=${JSON.stringify(result._meta?.warnings ?? []).slice(0, 160)}; mcp total=${mcpAnswers[i].total ?? '-'})`
          : '';
      row(`one-shot ${op} == mcp`, result.error ?? (differs ? 'DIFFERENT' : 'same'), undefined, `${ms(t0)}, ${left.length} processes left${why}`);
      if (left.length) check(`one-shot ${op}: no process left`, false, left.join(','));
    }

    // ---- edit on disk: the next answers reflect it ---------------------------------------------
    const edited = 'src/v4/core/registries.ts';
    const before = await mcp.call('find_references', { symbol: '$ZodRegistry.add', max_results: 5000 });
    const beforeOutline = await mcp.call('get_file_outline', { file: edited });
    const probe =
      '\n/** lspgate probe: added on disk by try-real-ts-repo. */\nexport function lspgateProbe(r: $ZodRegistry<any>, s: any): void {\n  r.add(s, {} as any);\n}\n';
    fs.appendFileSync(path.join(ROOT, edited), probe);
    t0 = Date.now();
    const afterRefs = await mcp.call('find_references', { symbol: '$ZodRegistry.add', max_results: 5000 });
    const afterOutline = await mcp.call('get_file_outline', { file: edited });
    const afterSearch = await mcp.call('search_symbols', { query: 'lspgateProbe' });
    const probeHit = (afterSearch.symbols ?? afterSearch.results ?? []).find((h) => h.name === 'lspgateProbe');
    const afterCallers = await mcp.call('find_callers', { symbol: '$ZodRegistry.add', max_results: 1000 });
    row('after edit: find_references $ZodRegistry.add', `${before.total} → ${afterRefs.total}`, undefined, 'expect +1', afterRefs.total === before.total + 1);
    check(
      'after edit: get_file_outline lists lspgateProbe',
      (afterOutline.symbols ?? []).some((s) => s.name === 'lspgateProbe') && !(beforeOutline.symbols ?? []).some((s) => s.name === 'lspgateProbe'),
    );
    check('after edit: search_symbols finds lspgateProbe', Boolean(probeHit), probeHit?.symbol_id ?? JSON.stringify(afterSearch).slice(0, 200));
    check(
      'after edit: find_callers lists lspgateProbe',
      (afterCallers.root?.calls ?? []).some((c) => c.name === 'lspgateProbe'),
      ms(t0),
    );
    if (probeHit) {
      const gs = await mcp.call('get_symbol', { symbol_id: probeHit.symbol_id, verify: true });
      check(
        'after edit: get_symbol lspgateProbe verified',
        gs._meta?.content_verified === true && (gs.source ?? gs.code ?? '').includes('r.add(s'),
        gs.error ?? '',
      );
    }
  } finally {
    await gw.close();
  }

  // ---- MCP exit by stdin EOF ---------------------------------------------------------------------
  t0 = Date.now();
  const mcpPid = mcp.transport.pid;
  const seenMcp = mcp.tree.seen.size;
  mcp.transport._process?.stdin?.end(); // stdin EOF, as an agent host that goes away
  const left = await mcp.tree.gone(30_000);
  for (const until = Date.now() + 30_000; alive(mcpPid) && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
  check(
    'mcp stdin EOF: lspgate and every process it started gone',
    left.length === 0 && !alive(mcpPid),
    `${seenMcp} descendants seen, left ${left.join(',') || 'none'}, lspgate ${alive(mcpPid) ? 'STILL RUNNING' : 'exited'} (${ms(t0)})`,
  );
  await mcp.client.close().catch(() => undefined);

  // ---- 3. restart on the same cache dir: documentSymbol counted (REPL trace) -------------------
  const countDocSymbols = (out) => out.split('\n').filter((l) => /→ request textDocument\/documentSymbol/.test(l)).length;
  t0 = Date.now();
  // `.raw` starts the server before `.index`: the REPL's trace attaches to new sessions by polling
  // (every 250 ms), which can miss the first requests of a session started inside a command.
  const replScript = (query) => `.trace on\n.raw typescript-language-server workspace/symbol {"query":"x"}\n.index ${ROOT}\n.search ${query}\n`;
  const restart = await runProcess(['repl', '--root', ROOT], cacheA, replScript('lspgateProbe'));
  row(
    'restart (same cache): documentSymbol requests during index_folder',
    countDocSymbols(restart.out),
    undefined,
    `expect 0 (catalog from disk), ${ms(t0)}; REPL EOF left ${restart.left.length} processes`,
    countDocSymbols(restart.out) === 0 && restart.left.length === 0,
  );
  check('restart: the edit made before the restart is in the reloaded catalog', /registries\.ts::lspgateProbe#function/.test(restart.out));

  fs.appendFileSync(path.join(ROOT, 'src/v3/helpers/util.ts'), '\nexport function lspgateProbeTwo(): number {\n  return 2;\n}\n');
  t0 = Date.now();
  const again = await runProcess(['repl', '--root', ROOT], cacheA, replScript('lspgateProbeTwo'));
  check('restart after editing 1 file: the new function is found', /util\.ts::lspgateProbeTwo#function/.test(again.out));
  row(
    'restart after editing 1 file: documentSymbol requests',
    countDocSymbols(again.out),
    undefined,
    `expect 1, ${ms(t0)}; REPL EOF left ${again.left.length} processes`,
    countDocSymbols(again.out) === 1 && again.left.length === 0,
  );

  // ---- SIGTERM -----------------------------------------------------------------------------------
  const term = spawn(process.execPath, [CLI, 'mcp', '--tools', 'all', '--root', ROOT], { env: env(cacheA), stdio: ['pipe', 'pipe', 'pipe'] });
  const termTree = watchTree(term.pid);
  term.stdout.resume();
  term.stderr.resume();
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
  };
  term.stdin.write(JSON.stringify(init) + '\n' + JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  term.stdin.write(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_definition', arguments: { symbol: 'addIssueToContext' } } }) + '\n',
  );
  let answered = false;
  term.stdout.on('data', (d) => (answered ||= String(d).includes('"id":2')));
  const until = Date.now() + 300_000;
  while (!answered && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  const servers = termTree.seen.size;
  term.kill('SIGTERM');
  const termLeft = await termTree.gone(30_000);
  check(
    'mcp SIGTERM (servers running): no process left',
    termLeft.length === 0 && servers > 0,
    `${servers} descendants seen, left ${termLeft.join(',') || 'none'}`,
  );

  // ---- summary -----------------------------------------------------------------------------------
  const cols = ['what', 'lspgate', 'raw', 'ok', 'note'];
  const width = Object.fromEntries(cols.map((c) => [c, Math.min(Math.max(c.length, ...rows.map((r) => r[c].length)), c === 'note' ? 90 : 70)]));
  const line = (r) => cols.map((c) => String(r[c]).slice(0, width[c]).padEnd(width[c])).join(' | ');
  console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
  for (const r of rows) console.log(line(r));
  const bad = rows.filter((r) => r.ok === 'DIFF' || r.lspgate.startsWith('FAILED') || r.lspgate === 'DIFFERENT').length;
  console.log(`\n${rows.length} rows, ${bad} failed or different`);
  process.exitCode = bad ? 1 : 0;
}

await main();
