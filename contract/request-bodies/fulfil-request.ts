// zod/mini: the same validation core as zod's chained API, without the methods that pull all of
// zod into every bundle that validates (~70 KB less minified code to load at cold start).
import * as z from 'zod/mini';
import { contentFields, fileFieldsOnlyForFiles } from './content';

/**
 * One module per resource: a zod schema is built when its module loads, so a route bundles and
 * builds only the bodies it validates (docs/decisions/cold-start-module-evaluation.md).
 */

/** POST /requests/{id}: the answer, with the content fields and limits of POST /secrets. */
export const fulfilRequestBody = z.strictObject(contentFields).check(fileFieldsOnlyForFiles);
