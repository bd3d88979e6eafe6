#!/usr/bin/env bash
# Acceptance of issue 3 on real code that is not part of lspgate, tried as a new user would:
# one project per language, each operation through the Gateway (what the CLI/MCP call), and the
# same questions asked of the raw language server session at the same positions. Prints a compact
# table: lspgate vs raw reference counts, definitions, caller counts.
#
#   Go:     encoding/json of the local Go toolchain's GOROOT, copied into a module of its own
#           (`go`), and net/url opened in place inside GOROOT (`goroot`: gopls loads the whole
#           std module, 832 packages, for it).
#   Python: the json package of the local Python's standard library, copied out.
#   PHP:    Laravel's Illuminate Database/Support/Collections/Contracts (8.83, Debian's
#           php-illuminate-* packages: `apt-get download`, unpacked with dpkg -x, never installed).
#           Debian's php-laravel-framework itself holds only Illuminate/Foundation bits; the
#           components live in php-illuminate-<component>.
#
# Nothing else is fetched. Usage: scripts/try-real-repos.sh [go|python|php ...] (default: all).
# Build first (npx tsc -p .). Work dir: $LSPGATE_TRY_DIR (default /tmp/lspgate-try).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${LSPGATE_TRY_DIR:-/tmp/lspgate-try}"
# the newest Debian Go (/usr/lib/go-1.X, what install-go.sh installs), else the official tarball's
NEWEST_GOROOT="$(ls -d /usr/lib/go-1.* 2>/dev/null | sort -t. -k2,2n | tail -1)"
NEWEST_GOROOT="${NEWEST_GOROOT:-/usr/local/go}"
GOROOT_SRC="${GOROOT_SRC:-$NEWEST_GOROOT/src}"
GO_LINE="$(head -1 "$NEWEST_GOROOT/VERSION" | grep -o '^go1\.[0-9]*' | cut -c3-)"
PYLIB="${PYLIB:-$(python3 -c 'import json,os;print(os.path.dirname(os.path.dirname(json.__file__)))')}"
LANGS=("$@")
[ ${#LANGS[@]} -eq 0 ] && LANGS=(go goroot python php)
mkdir -p "$WORK"

prepare_go() {
  rm -rf "$WORK/go" && mkdir -p "$WORK/go/json"
  cp "$GOROOT_SRC"/encoding/json/*.go "$WORK/go/json/"
  printf 'module lspgate.test/stdjson\n\ngo %s\n' "${GO_LINE:-1.23}" > "$WORK/go/go.mod"
}

prepare_goroot() {
  [ -d "$GOROOT_SRC/net/url" ] || { echo "no $GOROOT_SRC/net/url" >&2; exit 1; }
}

prepare_python() {
  rm -rf "$WORK/python" && mkdir -p "$WORK/python"
  cp -r "$PYLIB/json" "$WORK/python/json"
  rm -rf "$WORK/python/json/__pycache__"
}

prepare_php() {
  local debs="$WORK/debs" unpacked="$WORK/laravel"
  mkdir -p "$debs"
  if ! ls "$debs"/php-illuminate-database_*.deb >/dev/null 2>&1; then
    (cd "$debs" && apt-get download php-illuminate-database php-illuminate-support php-illuminate-collections php-illuminate-contracts)
  fi
  rm -rf "$unpacked" "$WORK/php" && mkdir -p "$unpacked" "$WORK/php/Illuminate"
  for f in "$debs"/php-illuminate-*.deb; do dpkg -x "$f" "$unpacked"; done
  for d in Database Support Collections Contracts; do cp -r "$unpacked/usr/share/php/Illuminate/$d" "$WORK/php/Illuminate/"; done
  # intelephense's root marker (servers.json rootMarkers: composer.json, artisan).
  echo '{"name":"lspgate-try/illuminate","autoload":{"psr-4":{"Illuminate\\":"Illuminate/"}}}' > "$WORK/php/composer.json"
  # One model of our own on top of the real framework: its extends chain ends in the real Model.
  mkdir -p "$WORK/php/app/Models"
  cat > "$WORK/php/app/Models/BlogPost.php" <<'PHP'
<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Builder;
use Illuminate\Database\Eloquent\Casts\Attribute;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Database\Eloquent\Relations\HasMany;
use Illuminate\Database\Eloquent\Relations\MorphTo;

class BlogPost extends Model
{
    protected $fillable = ['title', 'body', 'author_id'];

    protected $casts = ['published_at' => 'datetime', 'meta' => 'array'];

    public function author()
    {
        return $this->belongsTo(Author::class, 'author_id');
    }

    public function comments(): HasMany
    {
        return $this->hasMany(Comment::class);
    }

    public function subject(): MorphTo
    {
        return $this->morphTo('subject', 'subject_type', 'subject_id');
    }

    public function scopePublished(Builder $query): Builder
    {
        return $query->whereNotNull('published_at');
    }

    protected function title(): Attribute
    {
        return Attribute::make(get: fn ($value) => ucfirst($value));
    }
}
PHP
}

for l in "${LANGS[@]}"; do "prepare_$l"; done

cd "$HERE"
GOROOT_SRC="$GOROOT_SRC" LSPGATE_TRY_DIR="$WORK" node --input-type=module - "${LANGS[@]}" <<'NODE'
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import {
  CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest, DefinitionRequest, DocumentSymbolRequest, ReferencesRequest,
} from 'vscode-languageserver-protocol';
const { Gateway } = await import(pathToFileURL(path.resolve('dist/src/gateway/gateway.js')).href);

const WORK = process.env.LSPGATE_TRY_DIR;
// Per language: the descriptors asked for, and the symbols whose references/callers are counted.
const PLANS = {
  go: {
    root: 'go',
    type: 'Decoder', fn: 'Decoder.Decode', exports: ['json', 'lspgate.test/stdjson/json'],
    refs: ['Decoder', 'Unmarshal', 'Decoder.Decode', 'Valid'], callers: ['Unmarshal', 'checkValid', 'Decoder.Decode'],
  },
  goroot: {
    root: `${process.env.GOROOT_SRC}/net/url`,
    type: 'URL', fn: 'URL.Query', exports: ['net/url', '.'],
    // Unexported names: a reference search for an exported one type-checks every importer in std
    // (net/http, ...), which takes gopls longer than the 30 s request budget on a loaded 2-core box.
    refs: ['shouldEscape', 'unescape', 'getScheme', 'Values.Get'], callers: ['shouldEscape', 'unescape', 'getScheme'],
  },
  python: {
    root: 'python',
    type: 'JSONDecoder', fn: 'JSONDecoder.decode', exports: ['json', 'json.decoder'],
    refs: ['JSONDecoder', 'JSONDecoder.raw_decode', 'py_scanstring', 'JSONEncoder.encode'], callers: ['JSONDecoder.raw_decode', 'py_scanstring', 'JSONEncoder.iterencode'],
  },
  php: {
    root: 'php',
    type: 'Illuminate\\Database\\Eloquent\\Model', fn: 'Illuminate\\Database\\Eloquent\\Builder::where',
    exports: ['Illuminate\\Database\\Eloquent'], model: 'App\\Models\\BlogPost',
    refs: ['Illuminate\\Database\\Eloquent\\Model', 'Illuminate\\Database\\Eloquent\\Builder::where', 'Illuminate\\Database\\Eloquent\\Model::newQuery', 'Illuminate\\Support\\Str::snake'],
    callers: ['Illuminate\\Database\\Eloquent\\Model::newQuery', 'Illuminate\\Support\\Str::snake', 'Illuminate\\Database\\Eloquent\\Model::getTable'],
  },
};

const rows = [];
/** `same` when the compared values agree (by default the printed ones; call trees compare call-site counts). */
function row(lang, what, lspgate, raw, note = '', cmp = [lspgate, raw]) {
  const ok = raw === undefined ? '' : String(cmp[0]) === String(cmp[1]) ? 'same' : 'DIFF';
  rows.push({ lang, what, lspgate: String(lspgate), raw: raw === undefined ? '-' : String(raw), ok, note });
}
function uniq(locs) {
  const seen = new Set();
  return (locs ?? []).filter((l) => { const k = `${l.uri ?? l.targetUri}:${(l.range ?? l.targetSelectionRange).start.line}:${(l.range ?? l.targetSelectionRange).start.character}`; return seen.has(k) ? false : (seen.add(k), true); });
}
async function attempt(fn) {
  try { return await fn(); } catch (e) { return { error: `${e.code ?? 'ERR'}: ${String(e.message).slice(0, 160)}` }; }
}

async function trial(lang) {
  const plan = PLANS[lang];
  const root = fs.realpathSync(path.resolve(WORK, plan.root));
  const cacheDir = fs.mkdtempSync(path.join(WORK, 'cache-'));
  const gw = await Gateway.create({ root, cacheDir });
  const run = async (op, input) => (await gw.run(op, { ...input, output_format: 'json' })).result;
  try {
    // Descriptors.
    const t0 = Date.now();
    const td = await attempt(() => run('find_type_definition', { type_name: plan.type, ...(plan.typeKind ? { kind: plan.typeKind } : {}) }));
    row(lang, `find_type_definition ${plan.type}`, td.error ?? `${td.kind} ${td.full_name ?? td.name} @${td.location?.file_path}:${td.location?.start_line} fields=${td.fields?.length ?? 0} methods=${td.methods?.length ?? 0} relations=${td.relations?.length ?? 0}`, undefined, `${Date.now() - t0} ms (cold)`);
    if (td.location) {
      // Members: the descriptor's fields + methods vs the raw documentSymbol children of the type
      // (Go: methods are top-level `(*T).M` symbols of the package's files, so only fields compare).
      const abs = path.resolve(root, td.location.file_path);
      const session = await gw.context.broker.sessionFor(abs, root);
      const syms = (await session.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } })) ?? [];
      const find = (list) => { for (const s of list) { if (s.name === td.name && s.range.start.line + 1 === td.location.start_line) return s; const f = find(s.children ?? []); if (f) return f; } };
      const sym = find(syms);
      const kids = (sym?.children ?? []).length;
      const isGo = td.language === 'go';
      const mine = isGo ? (td.fields?.length ?? 0) : (td.fields?.length ?? 0) + (td.methods?.length ?? 0);
      row(lang, `members of ${td.name} (fields${isGo ? '' : '+methods'})`, mine, kids);
    }
    const fd = await attempt(() => run('get_function_details', { function_name: plan.fn }));
    row(lang, `get_function_details ${plan.fn}`, fd.error ?? `${fd.kind} ${fd.signature} params=${(fd.parameters ?? []).map((p) => p.name + (p.type ? ':' + p.type : '')).join(',')} returns=${(fd.returns ?? []).map((r) => r.type).join(',')}`);
    if (plan.model) {
      const m = await attempt(() => run('find_type_definition', { type_name: plan.model }));
      row(lang, `find_type_definition ${plan.model}`, m.error ?? `${m.kind} table=${m.table} fillable=${m.fillable?.join(',')} casts=${Object.keys(m.casts ?? {}).join(',')} scopes=${m.scopes?.join(',')} attributes=${m.attributes?.join(',')} relations=${(m.relations ?? []).filter((r) => r.method).map((r) => `${r.method}:${r.type}->${r.target}`).join(',')}`);
    }
    for (const pkg of plan.exports) {
      const ex = await attempt(() => run('list_package_exports', { package: pkg }));
      const list = ex.exports ?? ex.symbols ?? [];
      row(lang, `list_package_exports ${pkg}`, ex.error ?? `${list.length} exports${ex._meta?.truncated ? ' (truncated)' : ''}: ${list.slice(0, 6).map((s) => s.name).join(', ')}…`);
    }
    // References and definitions: lspgate vs the raw session at the declaration's position.
    for (const sym of plan.refs) {
      const def = await attempt(() => run('find_definition', { symbol: sym }));
      const d = def.definitions?.[0];
      if (!d) { row(lang, `find_references ${sym}`, def.error ?? 'no definition', undefined); continue; }
      const abs = path.resolve(root, d.file);
      const session = await gw.context.broker.sessionFor(abs, root);
      await session.waitReady();
      await session.syncDocument(abs);
      const position = { line: d.line - 1, character: d.column - 1 };
      const uri = pathToFileURL(abs).href;
      const rawOpts = { timeoutMs: 120_000 };
      const rawBefore = uniq(await session.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }, rawOpts));
      const lr = await attempt(() => run('find_references', { symbol: sym, max_results: 5000 }));
      const rawAfter = uniq(await session.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }, rawOpts));
      row(lang, `find_references ${sym}`, lr.error ?? lr.total, rawAfter.length, rawBefore.length !== rawAfter.length ? `raw before lspgate's call: ${rawBefore.length}` : '');
      // Definition from a use site in another place: raw definition vs find_definition there.
      // A use site inside the workspace (lspgate refuses positions outside it, by design).
      const use = rawAfter.find((l) => !(l.uri === uri && l.range.start.line === position.line) && fileURLToPath(l.uri).startsWith(root + path.sep));
      if (use) {
        const rawDef = uniq([].concat(await session.request(DefinitionRequest.type, { textDocument: { uri: use.uri }, position: use.range.start }) ?? []))[0];
        const rel = path.relative(root, fileURLToPath(use.uri));
        const ld = await attempt(() => run('find_definition', { file: rel, line: use.range.start.line + 1, column: use.range.start.character + 1 }));
        const l0 = ld.definitions?.[0];
        const rawTxt = rawDef ? `${path.relative(root, fileURLToPath(rawDef.uri ?? rawDef.targetUri))}:${(rawDef.range ?? rawDef.targetSelectionRange).start.line + 1}` : 'none';
        row(lang, `find_definition at ${rel}:${use.range.start.line + 1}`, ld.error ?? (l0 ? `${l0.file}:${l0.line}` : 'none'), rawTxt);
      }
    }
    // Callers: call hierarchy when the server has it, else references followed by `(`.
    for (const sym of plan.callers) {
      const lc = await attempt(() => run('find_callers', { symbol: sym, max_results: 1000 }));
      const callers = lc.root?.calls ?? [];
      const sites = callers.reduce((n, c) => n + (c.call_sites?.length ?? 0), 0);
      const def = (await attempt(() => run('find_definition', { symbol: sym }))).definitions?.[0];
      let raw;
      let rawSites;
      if (def) {
        const abs = path.resolve(root, def.file);
        const session = await gw.context.broker.sessionFor(abs, root);
        const uri = pathToFileURL(abs).href;
        const position = { line: def.line - 1, character: def.column - 1 };
        if (session.hasCapability('callHierarchyProvider')) {
          const [item] = (await session.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position })) ?? [];
          const inc = item ? (await session.request(CallHierarchyIncomingCallsRequest.type, { item })) ?? [] : [];
          const inside = inc.filter((c) => fileURLToPath(c.from.uri).startsWith(root + path.sep));
          rawSites = new Set(inside.flatMap((c) => c.fromRanges.map((r) => `${c.from.uri}:${r.start.line}:${r.start.character}`))).size;
          raw = `${inside.length} callers / ${rawSites} sites`;
        } else {
          const refs = uniq(await session.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: false } }));
          let calls = 0;
          for (const r of refs) {
            const text = fs.readFileSync(fileURLToPath(r.uri), 'utf8').split('\n')[r.range.end.line] ?? '';
            if (/^\s*\(/.test(text.slice(r.range.end.character))) calls++;
          }
          rawSites = calls;
          raw = `no call hierarchy: ${refs.length} references, ${calls} sites followed by "("`;
        }
      }
      row(lang, `find_callers ${sym}`, lc.error ?? `${callers.length} callers / ${sites} sites${lc._meta?.truncated ? ' (truncated)' : ''}`, raw, '', [lc.error ?? sites, rawSites]);
    }
  } finally {
    await gw.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

for (const lang of process.argv.slice(2)) {
  try { await trial(lang); } catch (e) { row(lang, 'trial', `FAILED: ${e.code ?? ''} ${e.message}`, undefined); }
}
const w = (k) => Math.max(...rows.map((r) => r[k].length), k.length);
const cols = ['lang', 'what', 'lspgate', 'raw', 'ok', 'note'];
const widths = Object.fromEntries(cols.map((c) => [c, Math.min(w(c), c === 'lspgate' ? 170 : 70)]));
const line = (r) => cols.map((c) => String(r[c]).slice(0, widths[c]).padEnd(widths[c])).join(' | ');
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
for (const r of rows) console.log(line(r));
NODE
