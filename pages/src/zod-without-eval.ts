import { config } from 'zod/mini';

/**
 * Imported first by every page. Zod compiles object parsers with `new Function` when it may, and
 * finds out by trying: under the pages' CSP (no 'unsafe-eval') that try is a reported violation.
 * Without the compiled fast path, parsing the service's small answers costs nothing noticeable.
 */
config({ jitless: true });
