/**
 * gopls answers "no package metadata for file" (with code 0, so its text is the only sign) for a
 * file no package of the build holds: one its build constraints exclude, or one outside every
 * module. Such a file has no diagnostics and no references from the server.
 */
import path from 'node:path';

/** `go tool dist list`'s operating systems and architectures, as a file name's `_GOOS`/`_GOARCH` suffix names them (`go help buildconstraint`). */
const GOOS = new Set('aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos'.split(' '));
const GOARCH = new Set(
  '386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm'.split(
    ' ',
  ),
);

/**
 * The build constraint a Go file carries, as the go command reads it and as a sentence's end: its
 * `//go:build` line (or the older `// +build` lines) above the package clause, else a `_GOOS`,
 * `_GOARCH` or `_GOOS_GOARCH` suffix of its name (before `_test`). Undefined when it has none.
 */
export function goBuildConstraint(fileName: string, text: string): { constraint: string; by: string } | undefined {
  const head = text.slice(0, Math.max(0, text.search(/^package /m)));
  const line = /^\/\/go:build .*$/m.exec(head)?.[0] ?? head.match(/^\/\/ \+build .*$/gm)?.join('; ');
  if (line) return { constraint: line.trim(), by: `its build tags \`${line.trim()}\`` };
  const parts = path
    .basename(fileName)
    .replace(/\.go$/, '')
    .replace(/_test$/, '')
    .split('_')
    .slice(1);
  const [last, before] = [parts.at(-1) ?? '', parts.at(-2) ?? ''];
  if (GOOS.has(before) && GOARCH.has(last))
    return { constraint: `_${before}_${last}`, by: `its name's \`_${before}_${last}\` (GOOS=${before}, GOARCH=${last})` };
  if (GOOS.has(last)) return { constraint: `_${last}`, by: `its name's \`_${last}\` (GOOS=${last})` };
  if (GOARCH.has(last)) return { constraint: `_${last}`, by: `its name's \`_${last}\` (GOARCH=${last})` };
  return undefined;
}

/** gopls's "no package metadata" for a file: no package of the build holds it (its build constraint named when it has one). */
export function goNoPackageReason(lspMessage: string, text: string, fileName: string): string | undefined {
  if (!lspMessage.includes('no package metadata')) return undefined;
  const constraint = goBuildConstraint(fileName, text);
  return `no package metadata: gopls builds no package with this file${constraint ? ` (excluded by ${constraint.by})` : ''}, so it has no diagnostics and no references`;
}
