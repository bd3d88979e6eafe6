/**
 * Held-out corpora of the tagger comparison, from Debian binary packages that ship sources (a crate's sources
 * under /usr/share/cargo/registry, C++ headers, a Ruby gem, shell scripts), fetched with `apt-get download` at
 * pinned versions (Debian's archive is a source this machine and CI reach) and unpacked with `dpkg-deb -x`.
 * None of them was looked at while the grammar-only profiles were written: they measure code never seen.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where the downloaded packages are kept between runs (one download per pinned version). */
const CACHE = process.env.LSPGATE_TRUTH_DEBS ?? path.join(os.tmpdir(), 'lspgate-truth-debs');

/**
 * The unpacked tree of `pkg` at `version` (`apt-get download pkg=version`), or undefined with the reason
 * printed: the archive may have dropped the version (a security update replaces it), or apt may be absent.
 */
export function debianTree(pkg: string, version: string): string | undefined {
  const out = path.join(CACHE, `${pkg}_${version.replace(/[^\w.+-]/g, '_')}`);
  if (fs.existsSync(path.join(out, '.complete'))) return out;
  const debs = path.join(CACHE, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  try {
    execFileSync('apt-get', ['download', `${pkg}=${version}`], { cwd: debs, stdio: ['ignore', 'ignore', 'pipe'] });
    const deb = fs.readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb') && decodeURIComponent(f).includes(`_${version}_`));
    if (!deb) throw new Error(`apt-get download left no ${pkg} ${version} package`);
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    execFileSync('dpkg-deb', ['-x', path.join(debs, deb), out]);
    fs.writeFileSync(path.join(out, '.complete'), '');
    return out;
  } catch (e) {
    process.stderr.write(
      `truth-ctags: apt-get download ${pkg}=${version} failed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); run apt-get update first, or the archive no longer has this version\n`,
    );
    return undefined;
  }
}

/** The pinned packages of the held-out corpora. */
export const DEBIAN = {
  rust: { pkg: 'librust-syn-dev', version: '1.0.107-1', under: 'usr/share/cargo/registry/syn-1.0.107' },
  cpp: { pkg: 'libspdlog-dev', version: '1:1.10.0+ds-0.4', under: 'usr/include/spdlog' },
  ruby: { pkg: 'ruby-rack', version: '2.2.22-0+deb12u2', under: 'usr/share/rubygems-integration/all/gems/rack-2.2.22' },
  shell: { pkg: 'git', version: '1:2.39.5-0+deb12u3', under: 'usr' },
} as const;

/** The first line of a file names a POSIX shell or bash (`#!/bin/sh`, `#!/usr/bin/env bash`). */
export function isShellScript(abs: string): boolean {
  const fd = fs.openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(64);
    const n = fs.readSync(fd, buf, 0, 64, 0);
    return /^#!\s*(\/usr)?\/bin\/(env\s+)?(ba)?sh\b/.test(buf.subarray(0, n).toString('latin1'));
  } finally {
    fs.closeSync(fd);
  }
}
