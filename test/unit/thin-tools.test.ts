/**
 * The thin entry's view of the operation table (src/cli/thin/operations.json, written by the build
 * from the table) is the table's: the same names in the same order, titles, REPL commands,
 * profiles and `--help` texts; its `--tools` check prints, for each value, the same stderr text
 * (or none) as the full CLI's parseToolsFlag + selectTools printed by errorText.
 */
import { describe, expect, it } from 'vitest';

import { mainHelp } from '../../src/cli/thin/help-text.js';
import { thinPlan } from '../../src/cli/thin/plan.js';
import { listedOperations, operationNames, toolsFlagError } from '../../src/cli/thin/tools.js';
import { operationHelp } from '../../src/frontends/help.js';
import { errorText } from '../../src/frontends/one-shot.js';
import { parseToolsFlag, selectTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';

function fullCliText(flag: string): string | undefined {
  try {
    selectTools(parseToolsFlag(flag), operations);
    return undefined;
  } catch (e) {
    const { text, code } = errorText(e);
    expect(code).toBe(2);
    return text;
  }
}

describe("the thin entry's operation list", () => {
  it('is the table: names in order, titles, REPL commands, profiles, --help texts (npm run build regenerates it)', () => {
    expect(operationNames()).toEqual(operations.map((o) => o.name));
    expect(listedOperations()).toEqual(
      operations.map((op) => ({
        name: op.name,
        title: op.title,
        ...(op.repl ? { repl: op.repl.command } : {}),
        profile: op.profile ?? 'all',
        help: operationHelp(op),
      })),
    );
    expect(mainHelp(listedOperations(), '0.0.0')).toContain('  find_definition');
  });

  it.each(['core', ' all ', 'default', 'find_definition,get_symbol', 'get_symbol,', 'no_such_tool', 'a,b,get_symbol', ' , ', ''])(
    '%j: the full CLI text',
    (flag) => {
      expect(toolsFlagError(flag)).toEqual(fullCliText(flag));
    },
  );

  it('makes a bad mcp --tools a usage plan, a good one a relay', () => {
    expect(thinPlan(['mcp', '--tools', 'no_such_tool'], { LSPGATE_DAEMON: 'auto' }, '/')).toEqual({ kind: 'usage', stderr: fullCliText('no_such_tool') });
    expect(thinPlan(['mcp', '--tools', 'core'], { LSPGATE_DAEMON: 'auto' }, '/')).toMatchObject({ kind: 'relay', tools: 'core' });
  });
});
