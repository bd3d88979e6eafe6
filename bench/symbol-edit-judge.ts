/**
 * The compiler's verdict for bench/symbol-edit-breaking.ts: errors by file (relative to the root)
 * and message. TypeScript: tsc --noEmit; Go: go build + go vet; Python: the pyright CLI; PHP: `php -l`
 * of every file, every class loaded by `php` itself (an interface method's new parameter makes
 * its implementing classes a fatal error only when they are loaded), and intelephense's own
 * diagnostics of every file as the server reads the disk, answered for the version it was last
 * sent (intelephenseErrors; php has no type check of calls).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Gateway } from '../src/gateway/gateway.js';
import type { OpenDocument } from '../src/lsp/types.js';
import { toDiagnosticEntry } from '../src/service/diagnostics/diagnostic-entries.js';
import { NEWEST_GO } from './go-toolchain.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Loads one PHP file's declarations through a PSR-4 autoloader (the root's composer.json prefix, then /usr/share/php). */
const PHP_LOAD = `
$root = $argv[1]; $file = $argv[2];
$map = json_decode(file_get_contents("$root/composer.json"), true)["autoload"]["psr-4"] ?? [];
spl_autoload_register(function ($class) use ($root, $map) {
  foreach ($map as $prefix => $dir) {
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
      $f = "$root/$dir" . str_replace("\\\\", "/", substr($class, strlen($prefix))) . ".php";
      if (is_file($f)) { require_once $f; return; }
    }
  }
  $f = "/usr/share/php/" . str_replace("\\\\", "/", $class) . ".php";
  if (is_file($f)) require_once $f;
});
require_once "$root/$file";
`;

export async function judge(lang: string, root: string, g: Gateway, files: string[]): Promise<Map<string, string[]> | undefined> {
  const out = new Map<string, string[]>();
  const add = (file: string, msg: string) => {
    const f = path.isAbsolute(file) ? path.relative(root, file) : file.replace(/^\.\//, '');
    out.set(f, [...(out.get(f) ?? []), msg.trim()]);
  };
  const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 600_000 });
  if (lang === 'typescript') {
    const r = run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit', '--pretty', 'false']);
    for (const m of `${r.stdout}`.matchAll(/^(\S+\.ts)\(\d+,\d+\): error (TS\d+: .*)$/gm)) add(m[1]!, m[2]!);
  } else if (lang === 'go') {
    const go = fs.existsSync(NEWEST_GO) ? NEWEST_GO : 'go';
    const env = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOCACHE: path.join(path.dirname(root), 'gocache') };
    for (const args of [
      ['build', './...'],
      ['vet', './...'],
    ]) {
      const r = run(go, args, env);
      for (const m of `${r.stdout}${r.stderr}`.matchAll(/^(?:vet: )?(\S+\.go):\d+:\d+: (.*)$/gm)) add(m[1]!, m[2]!);
    }
  } else if (lang === 'python') {
    const r = run(process.execPath, [path.join(REPO, 'node_modules/pyright/index.js'), '--outputjson']);
    const json = JSON.parse(r.stdout || '{}') as { generalDiagnostics?: { file: string; severity: string; message: string }[] };
    for (const d of json.generalDiagnostics ?? []) if (d.severity === 'error') add(d.file, d.message.split('\n')[0]!);
  } else if (lang === 'php') {
    for (const f of files) {
      const lint = run('php', ['-l', f]);
      if (!`${lint.stdout}`.includes('No syntax errors detected')) add(f, `php -l: ${`${lint.stdout}${lint.stderr}`.trim().split('\n')[0]}`);
      const load = run('php', ['-d', 'display_errors=stderr', '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-r', PHP_LOAD, root, f]);
      for (const m of `${load.stderr}${load.stdout}`.matchAll(/(?:Fatal error|Warning): +(.*) in (\S+\.php) on line \d+/g)) add(m[2]!, `php: ${m[1]}`);
    }
    for (const [f, messages] of await intelephenseErrors(g, root, files)) for (const m of messages) add(f, `intelephense: ${m}`);
  } else return undefined;
  return out;
}

/** No publish for any judged file for this long: intelephense has answered the versions it was sent. */
const PHP_QUIET_MS = 3000;

/**
 * intelephense's errors of every file as it reads them now. Each file is sent again as a new version
 * (its disk text) and the judge waits until the server has published for every one and then been
 * quiet for PHP_QUIET_MS: its publishes say no version, and one computed for an earlier text (the
 * delta's re-sync before the write) can arrive after the new version was sent — taken as the answer,
 * an edit's "Undefined function" read as absent under load. A file with no publish by then is asked
 * through get_diagnostics (which re-opens it); no answer is no verdict: the bench stops.
 */
async function intelephenseErrors(g: Gateway, root: string, files: string[]): Promise<Map<string, string[]>> {
  await g.run('get_diagnostics', { file: files[0], severity: 'error', wait_ms: 300_000, output_format: 'json' });
  const session = g.context.broker.existing().find((s) => s.serverId === 'intelephense');
  const feed = session?.diagnostics;
  if (!session || !feed) throw new Error('no intelephense session recording publishes');
  const docs = new Map<string, OpenDocument>();
  for (const f of files) docs.set(f, await session.syncDocument(path.join(root, f), undefined, { newVersion: true }));
  const uris = [...docs.values()].map((d) => d.uri);
  const answered = () => [...docs.values()].every((d) => feed.current(d.uri, d.version, session.generation));
  const deadline = Date.now() + 300_000;
  let last = Date.now();
  while (Date.now() < deadline) {
    const quietFor = PHP_QUIET_MS - (Date.now() - last);
    if (quietFor <= 0 && answered()) break;
    if (quietFor <= 0 && Date.now() - last > 30_000) break; // the rest are asked below
    const p = await Promise.race(uris.map((u) => feed.next(u, Math.max(quietFor, 250))));
    if (p) last = Date.now();
  }
  const out = new Map<string, string[]>();
  for (const [f, d] of docs) {
    const p = feed.current(d.uri, d.version, session.generation);
    if (p) {
      // as get_diagnostics words them (its fallback below): the same entry conversion
      const entries = p.diagnostics.map((x) => toDiagnosticEntry(x, { root, text: d.text, encoding: session.positionEncoding }));
      out.set(
        f,
        entries.filter((e) => e.severity === 'error').map((e) => e.message),
      );
      continue;
    }
    const diag = (await g.run('get_diagnostics', { file: f, severity: 'error', wait_ms: 300_000, output_format: 'json' })).result as {
      files?: { diagnostics: { message: string }[] }[];
      failed?: { file: string; code: string }[];
    };
    if (diag.failed?.length) throw new Error(`intelephense gave no diagnostics for ${f}: ${JSON.stringify(diag.failed)}`);
    out.set(
      f,
      (diag.files ?? []).flatMap((x) => x.diagnostics.map((m) => m.message)),
    );
  }
  return out;
}
