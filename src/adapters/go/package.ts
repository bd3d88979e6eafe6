/**
 * Go package facts read from source, no server round trip: the package clause, the module path
 * from the nearest go.mod, import paths, the files of one package directory, doc comments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { toRelative } from '../../util/paths.js';
import { isGoTestFile } from './tests.js';

export function packageClause(lines: string[]): string | undefined {
  for (const line of lines) {
    const m = /^package\s+([A-Za-z_]\w*)/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Nearest go.mod at or above `dir`: its directory and module path. The search goes on above the
 * workspace root (only a go.mod's `module` line is read there), as gopls's own does: a root
 * opened inside a module (`/usr/lib/go-1.26/src/net/url`, whose go.mod is GOROOT/src's
 * `module std`) still has import paths.
 */
export function findModule(dir: string): { dir: string; module: string } | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    let text: string | undefined;
    try {
      text = readFileSync(path.join(d, 'go.mod'), 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const m = /^module\s+(\S+)/m.exec(text);
      if (m) return { dir: d, module: m[1]!.replace(/^"|"$/g, '') };
    }
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * Import path of the package in `dir`: module path + directory below go.mod. The standard
 * library's module `std` is the exception: its packages are `net/url`, not `std/net/url`.
 */
export function importPathOf(dir: string): string | undefined {
  const mod = findModule(dir);
  if (!mod) return undefined;
  const rel = toRelative(mod.dir, dir);
  if (mod.module === 'std') return rel || undefined;
  return rel ? `${mod.module}/${rel}` : mod.module;
}

/** The non-test .go files of a package directory, sorted. */
export function packageDirFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.go') && !isGoTestFile(n))
    .sort()
    .map((n) => path.join(dir, n));
}

/** `import ( alias "path" )` → alias (or last path element) → import path. */
export function fileImports(lines: string[]): Map<string, string> {
  const out = new Map<string, string>();
  let inBlock = false;
  for (const line of lines) {
    const t = line.trim();
    if (inBlock) {
      if (t.startsWith(')')) {
        inBlock = false;
        continue;
      }
      addImport(out, t);
    } else if (/^import\s*\($/.test(t)) inBlock = true;
    else if (t.startsWith('import ')) addImport(out, t.slice(7).trim());
    else if (/^(func|type|var|const)\s/.test(t)) break;
  }
  return out;
}

function addImport(out: Map<string, string>, spec: string): void {
  const m = /^(?:([\w.]+)\s+)?"([^"]+)"/.exec(spec);
  if (!m || m[1] === '_' || m[1] === '.') return;
  const p = m[2]!;
  out.set(m[1] ?? p.split('/').pop()!, p);
}

/** The `//` comment block directly above a declaration line (0-based), as text. */
export function goDocAbove(lines: string[], declLine: number): string | undefined {
  const out: string[] = [];
  for (let l = declLine - 1; l >= 0; l--) {
    const t = (lines[l] ?? '').trim();
    if (!t.startsWith('//')) break;
    out.unshift(t.replace(/^\/\/ ?/, ''));
  }
  const text = out.join('\n').trim();
  return text || undefined;
}

/** A trailing `// comment` on a line, outside string literals and tags. */
export function trailingComment(line: string): string | undefined {
  const m = /^[^`"]*(?:(?:`[^`]*`|"(?:[^"\\]|\\.)*")[^`"]*)*?\/\/\s?(.*)$/.exec(line);
  return m?.[1]?.trim() || undefined;
}
