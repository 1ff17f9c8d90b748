/**
 * Stands in for `node:http` in the functions' bundles (an esbuild alias in lib/bundling.ts). An ESM
 * import of `node:http`, which middy's util makes for its status texts and the SDK makes for an
 * `http://` endpoint, builds the module's namespace, and on Node 24 that runs the getters of its
 * `WebSocket` exports, which load Node's bundled undici: about 55 ms of CPU alone, 20 ms within a
 * cold start (docs/decisions/cold-start-module-evaluation.md). `getBuiltinModule` hands over the
 * same module without the namespace, as `require` does. On Lambda the SDK talks `https://`, so
 * without this every route paid it for middy's one import, and the floor did not.
 */
const http = process.getBuiltinModule('node:http');

export default http;
export const { STATUS_CODES } = http;
