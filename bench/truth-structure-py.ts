/**
 * Class-base truth of a Python corpus from Python's own `ast`, resolved by a small resolver of its
 * own (not lspgate's, not pyright's), run with the machine's python3: every class definition, and for
 * each base expression that names something (`B`, `m.B`, `pkg.mod.B`, `Generic[T]`; a call names
 * nothing, keyword arguments are no bases) what the module's bindings make of it — a class of the
 * corpus (through `import … as …`, `from … import … as …`, relative imports, package re-exports,
 * `*` imports and `Name = OtherClass` assignments), or `ext:<Name>` for a name bound to a module
 * outside the corpus. Names the resolver cannot place (a base bound in a function scope, a value
 * computed at run time) are listed as unresolved and left out of the truth.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import type { RelationTruth } from './truth-structure-common.js';

const SCRIPT = String.raw`
import ast, builtins, json, os, sys

root = sys.argv[1]
mods = {}
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith('.py'):
            rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/')
            name = rel[:-3].replace('/', '.')
            if name.endswith('.__init__'):
                name = name[:-9]
            mods[name] = rel

trees = {}
def tree(m):
    if m not in trees:
        with open(os.path.join(root, mods[m]), encoding='utf-8', errors='replace') as fh:
            trees[m] = ast.parse(fh.read())
    return trees[m]

def absolute(m, level, name, is_pkg):
    if level == 0:
        return name or ''
    parts = m.split('.')
    base = parts if is_pkg else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return '.'.join(base + ([name] if name else []))

def top_level(body):
    for n in body:
        yield n
        if isinstance(n, ast.If):
            yield from top_level(n.body)
            yield from top_level(n.orelse)
        elif isinstance(n, ast.Try):
            for b in [n.body, n.orelse, n.finalbody] + [h.body for h in n.handlers]:
                yield from top_level(b)

bindings_cache = {}
def bindings(m):
    if m in bindings_cache:
        return bindings_cache[m]
    out, stars = {}, []
    bindings_cache[m] = (out, stars)
    is_pkg = mods[m].endswith('__init__.py')
    for n in top_level(tree(m).body):
        if isinstance(n, ast.ClassDef):
            out.setdefault(n.name, []).append(('class', '%s:%d' % (mods[m], n.lineno)))
        elif isinstance(n, ast.ImportFrom):
            src = absolute(m, n.level, n.module, is_pkg)
            for a in n.names:
                if a.name == '*':
                    stars.append(src)
                else:
                    out.setdefault(a.asname or a.name, []).append(('from', src, a.name))
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.asname:
                    out.setdefault(a.asname, []).append(('module', a.name))
                else:
                    head = a.name.split('.')[0]
                    out.setdefault(head, []).append(('module', head))
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, (ast.Name, ast.Attribute)):
            out.setdefault(n.targets[0].id, []).append(('expr', m, n.value))
    return out, stars

def member(mod, name, depth):
    # what 'name' is in module 'mod': class keys, a module, external, or unknown
    if depth > 12:
        return []
    if mod not in mods:
        sub = mod + '.' + name
        if any(k == sub or k.startswith(sub + '.') for k in mods):
            return [('module', sub)]
        return [('ext', name)]
    found = []
    out, stars = bindings(mod)
    for b in out.get(name, []):
        found += resolve_binding(b, depth + 1)
    if not found and (mod + '.' + name) in mods:
        found.append(('module', mod + '.' + name))
    if not found:
        for s in stars:
            found += [r for r in member(s, name, depth + 1) if r[0] != 'unknown']
    return found or [('unknown', name)]

def resolve_binding(b, depth):
    if b[0] == 'class':
        return [('class', b[1])]
    if b[0] == 'module':
        return [('module', b[1])]
    if b[0] == 'from':
        return member(b[1], b[2], depth)
    if b[0] == 'expr':
        return resolve_expr(b[1], b[2], depth)
    return []

def resolve_expr(m, e, depth):
    if isinstance(e, ast.Subscript):
        return resolve_expr(m, e.value, depth)
    if isinstance(e, ast.Name):
        found = member(m, e.id, depth)
        if all(r[0] == 'unknown' for r in found) and hasattr(builtins, e.id):
            return [('ext', e.id)]
        return found
    if isinstance(e, ast.Attribute):
        out = []
        for r in resolve_expr(m, e.value, depth):
            if r[0] == 'module':
                out += member(r[1], e.attr, depth + 1)
            elif r[0] == 'ext':
                out.append(('ext', e.attr))
        return out
    return []

types, edges, unresolved = {}, [], []
for m in sorted(mods):
    for n in ast.walk(tree(m)):
        if not isinstance(n, ast.ClassDef):
            continue
        sub = '%s:%d' % (mods[m], n.lineno)
        types[sub] = n.name
        for b in n.bases:
            if not isinstance(b, (ast.Name, ast.Attribute, ast.Subscript)):
                continue
            res = resolve_expr(m, b, 0)
            keys = [r[1] for r in res if r[0] == 'class'] + ['ext:' + r[1] for r in res if r[0] == 'ext']
            if not keys:
                unresolved.append('%s %s' % (sub, ast.unparse(b)))
            for k in dict.fromkeys(keys):
                edges.append([sub, k])
json.dump({'types': types, 'edges': edges, 'unresolved': unresolved}, sys.stdout)
`;

export function pythonTruth(root: string, workDir: string): RelationTruth & { unresolved: string[] } {
  const script = path.join(workDir, 'class-bases-truth.py');
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(script, SCRIPT);
  const parsed = JSON.parse(execFileSync('python3', [script, root], { maxBuffer: 64 << 20 }).toString()) as {
    types: Record<string, string>;
    edges: [string, string][];
    unresolved: string[];
  };
  return { types: new Map(Object.entries(parsed.types)), edges: parsed.edges.map(([sub, base]) => ({ sub, base })), unresolved: parsed.unresolved };
}
