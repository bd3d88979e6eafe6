/**
 * `lspgate trust DIR` / `lspgate untrust DIR`: the user's decision that a folder's own
 * `.lspgate/servers.json` and config.json apply in full (servers it configures, programs and paths
 * in its settings, raised limits). Kept in the user's config as `trustedFolders` (config/trust.ts);
 * read when a workspace's gateway starts, so a running `lspgate mcp` keeps what it started with.
 */
import { setTrust } from '../config/trust.js';
import { LspgateError } from '../errors/errors.js';
import { guardedParse } from '../frontends/operation-args.js';

export function runTrustCommand(command: 'trust' | 'untrust', argv: string[]): string {
  const { values, positionals } = guardedParse({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  if (positionals.length !== 1) throw new LspgateError('INVALID_INPUT', `usage: lspgate ${command} DIR (one folder)`);
  const change = setTrust(positionals[0]!, command === 'trust');
  if (values.json)
    return (
      JSON.stringify({
        [command === 'trust' ? 'trusted' : 'untrusted']: change.folder,
        changed: change.changed,
        config: change.file,
        ...(change.stillTrustedBy ? { still_trusted_by: change.stillTrustedBy } : {}),
      }) + '\n'
    );
  if (command === 'trust') {
    return `${change.changed ? 'trusted' : 'already trusted'}: ${change.folder} (and its subfolders): its .lspgate config now applies in full, including the programs it names (${change.file}); running lspgate processes keep what they started with\n`;
  }
  const still = change.stillTrustedBy ? `; it is still trusted through ${change.stillTrustedBy}` : '';
  return `${change.changed ? 'untrusted' : 'was not in trustedFolders'}: ${change.folder}${still} (${change.file})\n`;
}
