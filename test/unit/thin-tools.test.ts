/**
 * The light floor's `--tools` check (src/cli/thin/tools.ts) is the full CLI's: the same operation
 * names in the same order as the registry, and for each value the same stderr text (or none) as
 * parseToolsFlag + selectTools printed by errorText.
 */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/frontends/one-shot.js';
import { OPERATION_NAMES, toolsFlagError } from '../../src/cli/thin/tools.js';
import { thinPlan } from '../../src/cli/thin/plan.js';
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

describe('the light --tools check', () => {
  it('knows every operation, in the registry order', () => {
    expect(OPERATION_NAMES).toEqual(operations.map((o) => o.name));
  });

  it.each(['core', ' all ', 'find_definition,get_symbol', 'get_symbol,', 'no_such_tool', 'a,b,get_symbol', ' , ', ''])('%j: the full CLI text', (flag) => {
    expect(toolsFlagError(flag)).toEqual(fullCliText(flag));
  });

  it('makes a bad mcp --tools a usage plan, a good one a relay', () => {
    expect(thinPlan(['mcp', '--tools', 'no_such_tool'], { LSPGATE_DAEMON: 'auto' }, '/')).toEqual({ kind: 'usage', stderr: fullCliText('no_such_tool') });
    expect(thinPlan(['mcp', '--tools', 'core'], { LSPGATE_DAEMON: 'auto' }, '/')).toMatchObject({ kind: 'relay', tools: 'core' });
  });
});
