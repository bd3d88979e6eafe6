"""The Python oracle of `npm run truth`: what the standard library's ast says about a tree of
Python packages, as JSON on stdout.

- imports: per file, the workspace files each import statement loads, by lspgate's rule (docs/operations-guide.md
  "Relationships"): `import a.b` -> a/b; `from pkg import n` -> pkg, and pkg/n when n is a
  submodule; relative imports resolved against the file's package (PEP 328).
- funcs: every function and method with its lines, lines of code (blank, comment-only and
  docstring lines left out) and cyclomatic complexity (1 + if/elif, loops, except, conditional
  expressions, boolean operators, comprehension for/if, match cases).
- overrides: methods whose class has a workspace base class (resolved by name in its module and
  through `from x import Name`) that defines a method of the same name.
"""
import ast
import io
import json
import os
import sys
import tokenize

root = os.path.abspath(sys.argv[1])


def rel(p):
    return os.path.relpath(p, root).replace(os.sep, "/")


def module_file(mod):
    base = os.path.join(root, *mod.split("."))
    for f in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(f):
            return rel(f)
    return None


def package_of(path):
    d = os.path.dirname(rel(path))
    return d.replace("/", ".") if d else ""


def imports_of(tree, path):
    out = set()
    pkg = package_of(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                f = module_file(a.name)
                if f:
                    out.add(f)
        elif isinstance(node, ast.ImportFrom):
            base = []
            if node.level:
                base = pkg.split(".") if pkg else []
                if node.level > 1:
                    base = base[: len(base) - node.level + 1]
            mod = ".".join([p for p in base if p] + ([node.module] if node.module else []))
            f = module_file(mod) if mod else None
            if f:
                out.add(f)
            for a in node.names:
                sub = module_file(mod + "." + a.name if mod else a.name)
                if sub:
                    out.add(sub)
    out.discard(rel(path))
    return sorted(out)


def code_lines(src_lines, tree):
    """1-based lines holding code: not blank, not comment-only, not a docstring."""
    skip = set()
    for tok in tokenize.generate_tokens(io.StringIO("".join(src_lines)).readline):
        if tok.type == tokenize.COMMENT:
            line = src_lines[tok.start[0] - 1]
            if not line[: tok.start[1]].strip():
                skip.add(tok.start[0])
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                skip.update(range(first.lineno, first.end_lineno + 1))
    return {i for i, l in enumerate(src_lines, 1) if l.strip() and i not in skip}


def cyclomatic(fn):
    n = 1
    for node in ast.walk(fn):
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.IfExp, ast.match_case)):
            n += 1
        elif isinstance(node, ast.BoolOp):
            n += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            n += 1 + len(node.ifs)
    return n


files = {}
funcs = []
classes = {}  # id -> {file, name, bases: [names], methods: {name: id}, module_names: {}}
for d, dirs, names in os.walk(root):
    dirs[:] = [x for x in dirs if x not in ("__pycache__", ".git")]
    for name in sorted(names):
        if not name.endswith(".py"):
            continue
        path = os.path.join(d, name)
        text = open(path, encoding="utf-8").read()
        src_lines = text.splitlines(keepends=True)
        tree = ast.parse(text)
        f = rel(path)
        files[f] = {"imports": imports_of(tree, path)}
        lines = code_lines(src_lines, tree)
        imported = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                for a in node.names:
                    imported[a.asname or a.name] = (node.level, node.module, a.name)

        def visit(body, prefix, cls):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qual = prefix + node.name
                    start = min([node.lineno] + [x.lineno for x in node.decorator_list])
                    loc = len([l for l in lines if start <= l <= node.end_lineno])
                    funcs.append({"id": f + "::" + qual, "file": f, "line": node.lineno, "start": start, "end_line": node.end_lineno, "loc": loc, "cyclomatic": cyclomatic(node), "method": cls is not None})
                    if cls is not None:
                        classes[cls]["methods"][node.name] = f + "::" + qual
                elif isinstance(node, ast.ClassDef):
                    cid = f + "::" + prefix + node.name
                    classes[cid] = {"file": f, "name": node.name, "bases": [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else None for b in node.bases], "methods": {}, "imported": imported, "top": not prefix}
                    visit(node.body, prefix + node.name + ".", cid)

        visit(tree.body, "", None)


def resolve_base(cls, name):
    if name is None:
        return None
    same = cls["file"] + "::" + name
    if same in classes:
        return same
    imp = cls["imported"].get(name)
    if imp:
        level, module, orig = imp
        pkg = os.path.dirname(cls["file"]).replace("/", ".")
        base = pkg.split(".") if level else []
        if level > 1:
            base = base[: len(base) - level + 1]
        mod = ".".join([p for p in base if p] + [module])
        f = module_file(mod)
        if f and f + "::" + orig in classes:
            return f + "::" + orig
    return None


overrides = []
for cid, cls in classes.items():
    seen, stack = set(), [resolve_base(cls, b) for b in cls["bases"]]
    while stack:
        b = stack.pop()
        if not b or b in seen:
            continue
        seen.add(b)
        for m, mid in cls["methods"].items():
            if m in classes[b]["methods"] and not (m.startswith("__") and m.endswith("__")):
                overrides.append({"method": mid, "base": classes[b]["methods"][m]})
        stack.extend(resolve_base(classes[b], x) for x in classes[b]["bases"])

print(json.dumps({"files": files, "funcs": funcs, "overrides": overrides}))
