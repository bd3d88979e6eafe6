/** The package version, read once from lspgate's own package.json (one copy: src/light/paths.ts). */
export { packageVersion } from '../light/paths.js';
