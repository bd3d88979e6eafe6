/**
 * The compiler's verdict for bench/symbol-edit-breaking.ts: errors by file (relative to the root)
 * and message. TypeScript: tsc --noEmit; Go: go build + go vet; Python: the pyright CLI; PHP: `php -l`
 * of every file, every class loaded by `php` itself (an interface method's new parameter makes
 * its implementing classes a fatal error only when they are loaded), and intelephense's own
 * diagnostics of every file as the server reads the disk (php has no type check of calls).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Gateway } from '../src/gateway/gateway.js';
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
      // no answer is no verdict: the bench stops rather than count a file as accepted
      const diag = (await g.run('get_diagnostics', { file: f, severity: 'error', wait_ms: 300_000, output_format: 'json' })).result as {
        files?: { diagnostics: { message: string }[] }[];
        failed?: { file: string; code: string }[];
      };
      if (diag.failed?.length) throw new Error(`intelephense gave no diagnostics for ${f}: ${JSON.stringify(diag.failed)}`);
      for (const d of (diag?.files ?? []).flatMap((x) => x.diagnostics)) add(f, `intelephense: ${d.message}`);
    }
  } else return undefined;
  return out;
}
