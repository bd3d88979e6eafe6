// Import paths from go.mod files laid out in a temp dir by the test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { importPathOf } from '../../src/adapters/go/package.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function mod(dir: string, module: string): string {
  const d = path.join(tmp, dir);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, 'go.mod'), `module ${module}\n\ngo 1.23\n`);
  return d;
}

describe('importPathOf', () => {
  it('module path + directory below go.mod, also for a directory opened below the module root', () => {
    const root = mod('app', 'example.com/app');
    fs.mkdirSync(path.join(root, 'internal/store'), { recursive: true });
    expect(importPathOf(root)).toBe('example.com/app');
    // The go.mod is above the directory a user would open as the workspace: still found.
    expect(importPathOf(path.join(root, 'internal/store'))).toBe('example.com/app/internal/store');
  });

  it("the standard library's module std has bare import paths (GOROOT/src/net/url is net/url)", () => {
    const src = mod('goroot/src', 'std');
    fs.mkdirSync(path.join(src, 'net/url'), { recursive: true });
    expect(importPathOf(path.join(src, 'net/url'))).toBe('net/url');
  });

  it('no go.mod anywhere above: no import path', () => {
    fs.mkdirSync(path.join(tmp, 'loose/pkg'), { recursive: true });
    // The temp dir sits under the system temp dir, which has no go.mod above it.
    expect(importPathOf(path.join(tmp, 'loose/pkg'))).toBeUndefined();
  });
});
