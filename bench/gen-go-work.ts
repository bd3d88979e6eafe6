/**
 * Go modules under one go.work for gen-repo.ts's multi-package mode: `go/m<i>/` each with a go.mod
 * (module example.com/m<i>) and a few packages; every module after the first imports the previous
 * one, so references and callers cross module boundaries through the go.work.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { Rng } from './seeded-random.js';

const PACKAGES = ['store', 'codec', 'rules'];

function goFile(mod: number, pkg: string, prev: number | undefined, rng: Rng): string {
  const type = `${pkg[0]!.toUpperCase()}${pkg.slice(1)}${mod}`;
  const lines = [`// Package ${pkg} of module m${mod}.`, `package ${pkg}`, ''];
  if (prev !== undefined) lines.push(`import prev "example.com/m${prev}/${pkg}"`, '');
  lines.push(`// ${type} holds a value.`, `type ${type} struct {`, '\tID    string', '\tValue int', '}', '');
  lines.push(`// New${type} builds a ${type}.`, `func New${type}(id string) *${type} {`);
  lines.push(`\treturn &${type}{ID: id, Value: ${1 + rng.int(9)}}`, '}', '');
  lines.push(`// Total sums the values of ${type}s.`, `func (t *${type}) Total(n int) int {`);
  lines.push(prev !== undefined ? `\treturn t.Value*n + prev.Compute${prev}(n)` : '\treturn t.Value * n', '}', '');
  lines.push(`// Compute${mod} is called from the next module.`, `func Compute${mod}(n int) int {`);
  lines.push(`\treturn New${type}("x").Total(n)`, '}', '');
  return lines.join('\n');
}

/** Writes the modules and the go.work into `root/go`; returns the relative paths of the .go files. */
export function generateGoWork(root: string, modules: number, rng: Rng): string[] {
  const goRoot = path.join(root, 'go');
  const files: string[] = [];
  for (let m = 0; m < modules; m++) {
    const dir = path.join(goRoot, `m${m}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'go.mod'), `module example.com/m${m}\n\ngo 1.23\n`);
    for (const pkg of PACKAGES) {
      fs.mkdirSync(path.join(dir, pkg), { recursive: true });
      fs.writeFileSync(path.join(dir, pkg, `${pkg}.go`), goFile(m, pkg, m > 0 ? m - 1 : undefined, rng));
      files.push(`go/m${m}/${pkg}/${pkg}.go`);
    }
  }
  const uses = Array.from({ length: modules }, (_, m) => `\t./go/m${m}`).join('\n');
  fs.writeFileSync(path.join(root, 'go.work'), `go 1.23\n\nuse (\n${uses}\n)\n`);
  return files;
}
