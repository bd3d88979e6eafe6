/**
 * Writes a synthetic but realistic TypeScript project of N files (default 400) into a directory:
 * modules of services, repositories and controllers with interfaces, classes, exported functions,
 * imports across modules and call chains that cross files, so references and incoming calls have
 * real fan-in. Deterministic from the seed. There is no network on the bench machines, so this
 * stands in for "a real repository of a few hundred files".
 *
 * With `--packages K` it is a monorepo: the modules are spread over K packages
 * (`packages/<name>/` with their own package.json and tsconfig.json, importing each other by relative
 * path), and with `--go-modules M` it also holds M Go modules under one go.work (gen-go-work.ts) —
 * the shape where a server per project root used to start a server per package.
 *
 *   node dist/bench/gen-repo.js [--files N] [--seed S] [--out DIR] [--packages K] [--go-modules M]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { generateGoWork } from './gen-go-work.js';
import { createRng, type Rng } from './seeded-random.js';

const DOMAINS = [
  'user',
  'order',
  'invoice',
  'payment',
  'cart',
  'catalog',
  'shipping',
  'auth',
  'report',
  'audit',
  'inventory',
  'pricing',
  'search',
  'notify',
  'billing',
  'session',
  'tenant',
  'webhook',
  'export',
  'ledger',
];
const ROLES = ['Service', 'Repository', 'Controller', 'Validator', 'Mapper', 'Store', 'Client', 'Policy', 'Formatter', 'Handler'];
const VERBS = ['load', 'save', 'find', 'apply', 'check', 'build', 'merge', 'render', 'sync', 'compute'];

interface GenFile {
  index: number;
  module: string;
  /** Relative path with `/`, e.g. src/order/order-service.ts */
  rel: string;
  className: string;
  iface: string;
  fnA: string;
  fnB: string;
}

export interface GenOptions {
  files?: number;
  seed?: number;
  out?: string;
  /** Spread the modules over this many packages, each with its own package.json and tsconfig.json. */
  packages?: number;
  /** Also write this many Go modules under one go.work (in go/). */
  goModules?: number;
}

export interface GeneratedRepo {
  root: string;
  files: string[];
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The package directory of a domain in a multi-package repository (domains dealt round-robin). */
function packageDir(domain: string, packages: number): string {
  return `packages/pkg${DOMAINS.indexOf(domain) % packages}`;
}

function planFiles(count: number, rng: Rng, packages = 0): GenFile[] {
  const used = new Set<string>();
  const files: GenFile[] = [];
  for (let i = 0; i < count; i++) {
    const domain = DOMAINS[i % DOMAINS.length]!;
    let base = `${cap(domain)}${rng.pick(ROLES)}`;
    for (let n = 2; used.has(base); n++) base = `${cap(domain)}${rng.pick(ROLES)}${n}`;
    used.add(base);
    const verb = rng.pick(VERBS);
    files.push({
      index: i,
      module: domain,
      rel: `${packages > 0 ? `${packageDir(domain, packages)}/` : ''}src/${domain}/${kebab(base)}.ts`,
      className: base,
      iface: `${base}Options`,
      fnA: `${verb}${base}`,
      fnB: `${rng.pick(VERBS)}${base}Summary`,
    });
  }
  return files;
}

function importPath(from: GenFile, to: GenFile): string {
  let rel = path.posix.relative(path.posix.dirname(from.rel), to.rel).replace(/\.ts$/, '.js');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

function renderFile(f: GenFile, deps: GenFile[], rng: Rng): string {
  const lines: string[] = [];
  for (const d of deps) lines.push(`import { ${d.className}, ${d.fnA}, type ${d.iface} } from '${importPath(f, d)}';`);
  lines.push('');
  lines.push(`/** Options of ${f.className}. */`);
  lines.push(`export interface ${f.iface} {`);
  lines.push(`  id: string;`);
  lines.push(`  limit: number;`);
  lines.push(`  tags?: string[];`);
  if (deps[0]) lines.push(`  parent?: ${deps[0].iface};`);
  lines.push(`}`);
  lines.push('');
  lines.push(`export type ${f.className}Result = { ok: boolean; value: number; source: string };`);
  lines.push('');
  lines.push(`/** ${f.className}: part of the ${f.module} module. */`);
  lines.push(`export class ${f.className} {`);
  lines.push(`  private readonly cache = new Map<string, number>();`);
  for (const d of deps) lines.push(`  private readonly ${d.className[0]!.toLowerCase()}${d.className.slice(1)} = new ${d.className}();`);
  lines.push('');
  lines.push(`  constructor(private readonly prefix: string = '${f.module}') {}`);
  const methods = ['run', 'validate', 'describe'];
  for (const m of methods) {
    lines.push('');
    lines.push(`  /** ${cap(m)} for one input. */`);
    lines.push(`  ${m}(opts: ${f.iface}): ${f.className}Result {`);
    lines.push(`    let value = opts.limit + this.prefix.length;`);
    for (const d of deps) {
      const field = `${d.className[0]!.toLowerCase()}${d.className.slice(1)}`;
      if (rng.next() < 0.6) lines.push(`    value += this.${field}.run({ id: opts.id, limit: opts.limit }).value;`);
      if (rng.next() < 0.5) lines.push(`    value += ${d.fnA}({ id: opts.id, limit: value }).value;`);
    }
    lines.push(`    this.cache.set(opts.id, value);`);
    lines.push(`    return { ok: value >= 0, value, source: '${f.className}.${m}' };`);
    lines.push(`  }`);
  }
  lines.push('}');
  lines.push('');
  lines.push(`/** Builds a ${f.className} and runs it. */`);
  lines.push(`export function ${f.fnA}(opts: ${f.iface}): ${f.className}Result {`);
  lines.push(`  const svc = new ${f.className}();`);
  lines.push(`  const first = svc.run(opts);`);
  lines.push(`  return svc.validate({ ...opts, limit: first.value });`);
  lines.push('}');
  lines.push('');
  lines.push(`/** A summary line for ${f.className}. */`);
  lines.push(`export function ${f.fnB}(items: ${f.iface}[]): string {`);
  lines.push(`  const total = items.reduce((sum, it) => sum + ${f.fnA}(it).value, 0);`);
  lines.push(`  return \`${f.className}: \${items.length} items, total \${total}\`;`);
  lines.push('}');
  lines.push('');
  return lines.join('\n');
}

/** Generates the project; returns its root and the relative paths of the source files. */
export function generateRepo(opts: GenOptions = {}): GeneratedRepo {
  const count = opts.files ?? 400;
  const seed = opts.seed ?? 42;
  const root = opts.out ?? fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-gen-${count}-`));
  const rng = createRng(seed);
  const packages = opts.packages ?? 0;
  const files = planFiles(count, rng, packages);
  fs.mkdirSync(root, { recursive: true });
  writeProject(root, `generated-${count}`);
  for (let p = 0; p < packages; p++) writeProject(path.join(root, `packages/pkg${p}`), `pkg${p}`);
  for (const f of files) {
    // Dependencies only on earlier files: an acyclic import graph with long call chains.
    const earlier = files.slice(Math.max(0, f.index - 40), f.index);
    const deps = rng.sample(earlier, Math.min(earlier.length, 1 + rng.int(3)));
    const abs = path.join(root, f.rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, renderFile(f, deps, rng));
  }
  const indexLines = files
    .filter((_, i) => i % 10 === 0)
    .map((f) => {
      const rel = path.posix.relative('src', f.rel).replace(/\.ts$/, '.js');
      return `export { ${f.className} } from '${rel.startsWith('.') ? rel : `./${rel}`}';`;
    });
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/index.ts'), indexLines.join('\n') + '\n');
  const goFiles = opts.goModules ? generateGoWork(root, opts.goModules, rng) : [];
  return { root, files: [...files.map((f) => f.rel), 'src/index.ts', ...goFiles] };
}

function writeProject(dir: string, name: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2) + '\n');
  const compilerOptions = { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src/**/*.ts'] }, null, 2) + '\n');
}

function argValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const filesArg = argValue(argv, '--files');
  const seedArg = argValue(argv, '--seed');
  const out = argValue(argv, '--out');
  const packagesArg = argValue(argv, '--packages');
  const goArg = argValue(argv, '--go-modules');
  const repo = generateRepo({
    ...(filesArg ? { files: Number(filesArg) } : {}),
    ...(seedArg ? { seed: Number(seedArg) } : {}),
    ...(out ? { out: path.resolve(out) } : {}),
    ...(packagesArg ? { packages: Number(packagesArg) } : {}),
    ...(goArg ? { goModules: Number(goArg) } : {}),
  });
  process.stdout.write(`${repo.root} (${repo.files.length} files)\n`);
}
