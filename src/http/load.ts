/**
 * The HTTP face, loaded only when a keeper is asked to listen. The commands' bundles replace this
 * module by a require of dist/bin/binder-http.js (scripts/build.mjs), so that no other command
 * reads Hono nor the MCP SDK's server; here, unbundled, it is a plain import.
 */
export const loadHttp = (): Promise<typeof import('./listen.js')> => import('./listen.js');
