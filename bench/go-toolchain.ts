/**
 * The newest Go toolchain a Debian machine has (`/usr/lib/go-1.X`, what scripts/install-go.sh
 * installs beside older ones), else the official tarball's /usr/local/go: benches and scripts copy
 * GOROOT/src from it and run its `go`, with the same toolchain gopls gets first on its PATH.
 * LSPGATE_GOROOT overrides it.
 */
import fs from 'node:fs';
import path from 'node:path';

function minor(dir: string): number {
  return Number(/^go-1\.(\d+)$/.exec(dir)?.[1] ?? -1);
}

export function newestGoRoot(): string {
  if (process.env.LSPGATE_GOROOT) return process.env.LSPGATE_GOROOT;
  const dirs = fs.existsSync('/usr/lib') ? fs.readdirSync('/usr/lib') : [];
  const debian = dirs
    .filter((d) => minor(d) >= 0 && fs.existsSync(path.join('/usr/lib', d, 'bin', 'go')))
    .sort((a, b) => minor(a) - minor(b))
    .pop();
  return debian ? path.join('/usr/lib', debian) : '/usr/local/go';
}

/** `go` of the newest toolchain, and its GOROOT/src. */
export const NEWEST_GO = path.join(newestGoRoot(), 'bin', 'go');
export const NEWEST_GOROOT_SRC = path.join(newestGoRoot(), 'src');

/**
 * The `go` line for a generated module that holds copies of GOROOT/src: that toolchain's own
 * language version (`1.26`), since its standard library may use features an older line forbids.
 */
export function newestGoLine(): string {
  const version = fs.readFileSync(path.join(newestGoRoot(), 'VERSION'), 'utf8').split('\n')[0] ?? '';
  const m = /^go(1\.\d+)/.exec(version);
  if (!m) throw new Error(`cannot read the Go version from ${newestGoRoot()}/VERSION (${version})`);
  return m[1]!;
}
