// zod/mini, as the routes import it (lambdas/http/request-bodies/).
import * as z from 'zod/mini';
import { houseRouteFloor } from './house-handler';

/** Any JSON object: the least a body check can be, with the library the routes check with. */
const anyObject = z.looseObject({});

/** The house floor of a route with a body (house-handler.ts): the body checked by a zod schema. */
export const handler = houseRouteFloor((body) => {
  anyObject.parse(body);
});
