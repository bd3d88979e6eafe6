/**
 * Files whose content lspgate never returns, searches, catalogs or sends to a language server:
 * by name (this table is the list docs/configuration.md shows, tested row by row) and by content (a private-key
 * block anywhere in the file, whatever it is called). Name rules name the file types secrets live in;
 * a source file is judged by its content. `.envrc`, `prod.env`,
 * `id_rsa.bak`, `id_ed25519_sk` and `aws_credentials.txt` used to slip through a shorter list.
 */

/** Basename rules, case-insensitive. */
export const SECRET_NAME_RULES: { glob: string; re: RegExp }[] = [
  { glob: '.env, .env.*', re: /^\.env(\..*)?$/i },
  { glob: '*.env', re: /\.env$/i },
  { glob: '.envrc', re: /^\.envrc$/i },
  // SSH keys and their copies (id_rsa.bak, id_ed25519_sk, id_ecdsa.pub); any id_* without an
  // extension; not source files such as id_utils.py
  { glob: 'id_rsa*, id_dsa*, id_ecdsa*, id_ed25519* (any suffix), id_* without extension', re: /^id_(rsa|dsa|ecdsa|ed25519)([._-].*)?$|^id_[^.]*$/i },
  // Credentials live in data and config files (`credentials`, `.git-credentials`, `aws_credentials.txt`,
  // `db_credentials.json`): the name rule holds for those types. A source file (`credentials.ts` of an
  // ORM's auth module) is judged by its content like every other, so its symbols stay visible.
  {
    glob: '*credentials* with no extension or a data/config one (json, yaml, toml, ini, conf, txt, xml, properties, bak, …)',
    re: /credentials[^.]*$|credentials.*\.(json5?|jsonc|ya?ml|toml|ini|cfg|conf|config|txt|xml|properties|csv|env|dat|db|sqlite3?|plist|gpg|asc|bak|old|orig|backup|save|tmp|swp)$/i,
  },
  { glob: '*.pem, *.key, *.p12, *.pfx, *.keystore, *.jks, *.ppk', re: /\.(pem|key|p12|pfx|keystore|jks|ppk)$/i },
  { glob: '.netrc, _netrc, .npmrc, .pypirc, .pgpass, .htpasswd', re: /^(\.netrc|_netrc|\.npmrc|\.pypirc|\.pgpass|\.htpasswd)$/i },
  { glob: 'secret.json|yaml|toml, secrets.*', re: /secrets?\.(json|ya?ml|toml)$/i },
];

export function isSecretName(basename: string): boolean {
  return SECRET_NAME_RULES.some((r) => r.re.test(basename));
}

/** PEM private keys of every kind (RSA, EC, OPENSSH, ENCRYPTED, PGP ... BLOCK). */
const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/** True when the content holds a private-key block. */
export function containsPrivateKey(content: string | Buffer): boolean {
  // the cheap scan first: nearly every file lacks the phrase
  if (!content.includes('PRIVATE KEY')) return false;
  return PRIVATE_KEY_BLOCK.test(typeof content === 'string' ? content : content.toString('latin1'));
}

/** The block, through its END line when there is one, else through the key's own characters (a truncated quote). */
const PRIVATE_KEY_SPAN =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,.-]*)/g;

export const REDACTED_KEY = '[private key redacted]';

/** `text` with every private-key block replaced by REDACTED_KEY (a server's hover quoting a string constant). */
export function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  return text.replace(PRIVATE_KEY_SPAN, REDACTED_KEY);
}
