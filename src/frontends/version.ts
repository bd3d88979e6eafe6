/** The package version, read once from lspgate's own package.json (one copy: src/link/paths.ts). */
export { packageVersion } from '../link/paths.js';
