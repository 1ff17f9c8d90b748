import * as z from 'zod/mini';
import { contentFields, fileFieldsOnlyForFiles } from './content';

/** POST /requests/{id}: the answer, with the content fields and limits of POST /secrets. */
export const fulfilRequestBody = z.strictObject(contentFields).check(fileFieldsOnlyForFiles);
