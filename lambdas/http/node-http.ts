/** `node:http` without its ESM namespace, whose getters load undici (docs/decisions/cold-start-module-evaluation.md). */
const http = process.getBuiltinModule('node:http');

export default http;
export const { STATUS_CODES } = http;
