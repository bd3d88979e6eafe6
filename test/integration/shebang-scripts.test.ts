// Scripts without an extension are cataloged by the interpreter their `#!` line names (the shell
// profile's interpreters, python, node, php): test and tool scripts of real repositories
// (`tests/run-all`, `bin/deploy`) were never walked. The gate reads only a file's first bytes to
// decide; a file without an extension and without a known `#!` line stays out.
import { describe, expect, it } from 'vitest';

import { scriptExtension } from '../../src/adapters/languages.js';
import { openScratch } from '../helpers/scratch.js';

const FILES: Record<string, string> = {
  'scripts/deploy': '#!/bin/sh\n# Ships a release.\nship_release() {\n  echo shipping\n}\nship_release\n',
  'tests/run-all': '#!/usr/bin/env bash\nset -eu\nrun_suite() {\n  echo "$1"\n}\nfunction run_every_suite {\n  run_suite unit\n}\n',
  'bin/report': '#!/usr/bin/env python3\n"""Prints a report."""\n\ndef print_report(rows):\n    return len(rows)\n',
  'bin/serve': '#!/usr/bin/env -S node --no-warnings\nfunction startServer(port) {\n  return port;\n}\n',
  'bin/admin': '#!/usr/bin/php\n<?php\nfunction runAdmin(): int { return 0; }\n',
  // a name whose last dot opens no extension is a name without one: judged by its #! line
  'tools/run 0.2': '#!/bin/sh\nrun_release_two() {\n  echo 0.2\n}\n',
  'tools/uses the 1.x version': '#!/bin/bash\nuse_first_version() {\n  echo 1.x\n}\n',
  'tools/it\'s "v1.0"': '#!/bin/sh\nquoted_version() {\n  echo v1\n}\n',
  // zsh: read with the bash grammar
  'bin/setup-zsh': '#!/usr/bin/env zsh\nsetup_prompt() {\n  print -P "%n"\n}\n',
  // no extension, no interpreter lspgate parses: out
  LICENSE: 'Permission is hereby granted, free of charge\n',
  'bin/tool': '#!/usr/bin/perl\nsub tool_main { 1 }\n',
};

describe('scripts without an extension, by their #! line', async () => {
  const fx = await openScratch('grammar-only', FILES);
  const indexed = await fx.run('index_folder', { path: fx.root });

  it('are walked and cataloged in their language', () => {
    expect(indexed.languages).toMatchObject({ shellscript: 1 + 2 + 4, python: 1, javascript: 1, php: 1 });
  });

  it.each([
    ['scripts/deploy', 'ship_release', 'shellscript'],
    ['tests/run-all', 'run_every_suite', 'shellscript'],
    ['bin/report', 'print_report', 'python'],
    ['bin/serve', 'startServer', 'javascript'],
    ['bin/admin', 'runAdmin', 'php'],
    ['tools/run 0.2', 'run_release_two', 'shellscript'],
    ['tools/uses the 1.x version', 'use_first_version', 'shellscript'],
    ['tools/it\'s "v1.0"', 'quoted_version', 'shellscript'],
    ['bin/setup-zsh', 'setup_prompt', 'shellscript'],
  ])('%s: %s is found by name, from syntax', async (file, name, language) => {
    const r = await fx.run('search_symbols', { query: name });
    const hit = (r.results as { name: string; file: string; language: string }[]).find((h) => h.name === name);
    expect(hit).toMatchObject({ file, language });
    expect(r._meta.index_state).toBe('syntax');
  });

  it('a script named with dots and spaces is outlined by its #! line', async () => {
    const r = await fx.run('get_file_outline', { file: 'tools/run 0.2' });
    expect(JSON.stringify(r)).toContain('run_release_two');
  });

  it('a file without an extension or a known interpreter stays out', async () => {
    const r = await fx.run('search_symbols', { query: 'tool_main' });
    expect(r.results).toEqual([]);
    const outline = await fx.run('get_repo_outline');
    expect(JSON.stringify(outline)).not.toContain('LICENSE');
  });

  it('the interpreter is read from the #! line alone', () => {
    expect(scriptExtension('#!/bin/sh\n')).toBe('.sh');
    expect(scriptExtension('#!/usr/bin/env bash\n')).toBe('.sh');
    expect(scriptExtension('#! /bin/dash -e\n')).toBe('.sh');
    expect(scriptExtension('#!/usr/bin/env -S VAR=1 python3.11 -u\n')).toBe('.py');
    expect(scriptExtension('#!/usr/bin/env node\n')).toBe('.js');
    expect(scriptExtension('#!/usr/bin/env zsh\n')).toBe('.sh');
    expect(scriptExtension('#!/usr/bin/perl\n')).toBeUndefined();
    expect(scriptExtension('echo "#!/bin/sh"\n')).toBeUndefined();
  });
});
