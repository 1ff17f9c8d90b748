import { houseRouteFloor } from './house-handler';

/** The house floor of a route without a body (house-handler.ts): nothing to validate. */
export const handler = houseRouteFloor(() => undefined);
