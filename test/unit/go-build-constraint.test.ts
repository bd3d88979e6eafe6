// The build constraint gopls's "no package metadata" comes from, read as the go command reads it
// (`go help buildconstraint`): the //go:build line, the older // +build lines, or a GOOS/GOARCH
// suffix of the file's name.
import { describe, expect, it } from 'vitest';

import { goBuildConstraint, goNoPackageReason } from '../../src/adapters/go/no-package.js';

describe('goBuildConstraint', () => {
  it('reads the //go:build line above the package clause, not one below it', () => {
    expect(goBuildConstraint('a.go', '// Copyright\n\n//go:build linux && !cgo\n\npackage a\n')?.constraint).toBe('//go:build linux && !cgo');
    expect(goBuildConstraint('a.go', 'package a\n\n//go:build ignore\n')).toBeUndefined();
  });

  it('reads the older // +build lines, all of them', () => {
    expect(goBuildConstraint('a.go', '// +build linux\n// +build !cgo\n\npackage a\n')?.constraint).toBe('// +build linux; // +build !cgo');
  });

  it("reads the file name's GOOS and GOARCH suffixes, before _test", () => {
    expect(goBuildConstraint('dir/zsys_windows.go', 'package a\n')).toEqual({ constraint: '_windows', by: "its name's `_windows` (GOOS=windows)" });
    expect(goBuildConstraint('asm_linux_arm64.go', 'package a\n')?.constraint).toBe('_linux_arm64');
    expect(goBuildConstraint('cpu_s390x_test.go', 'package a\n')?.constraint).toBe('_s390x');
    // a name that only looks like one: no underscore before it, or not a known GOOS/GOARCH
    expect(goBuildConstraint('windows.go', 'package a\n')).toBeUndefined();
    expect(goBuildConstraint('read_file.go', 'package a\n')).toBeUndefined();
  });

  it('names the constraint in the no-package reason, and only for that message', () => {
    expect(goNoPackageReason('no package metadata for file file:///x/a.go', '//go:build ignore\n\npackage a\n', 'a.go')).toContain(
      'its build tags `//go:build ignore`',
    );
    expect(goNoPackageReason('no package metadata for file file:///x/a.go', 'package a\n', 'a.go')).not.toContain('excluded');
    expect(goNoPackageReason('some other failure', '//go:build ignore\n\npackage a\n', 'a.go')).toBeUndefined();
  });
});
