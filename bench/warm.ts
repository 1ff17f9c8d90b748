import * as path from 'node:path';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { MAX_BODY_BYTES } from '#contract/limits';
import { ROUTES, routeEntry, type RouteDefinition, type RouteName } from '#lambdas/definitions/routes';
import { withDynamoDbUsage, type DynamoDbUsage } from '#local/dynamodb-usage';
import { lambdaContext } from '#local/lambda-context';
import { dataFilling } from '#test/support/api';
import { withCallsSeen } from './calls';
import { failureOf } from './cold-start/protocol';
import { routeEvent } from './events';
import { freshKey } from './fixtures';
import { HOUSE_FLOORS, type BenchFunction } from './functions';
import { hundredths, judge, median, pairedDifferenceInterval, pairedRatioInterval, type Judged } from './stats';

/**
 * Each function's handler, warm, invoked in this process as Lambda invokes it, against DynamoDB
 * Local: its DynamoDB calls and capacity (counted on one request by local mode's usage
 * middleware), the commands it sends, and per request the milliseconds it adds over the time its
 * SDK calls were in flight; its house floor, making the same commands, invoked in turn with it.
 */

/** A function may add this much over its bare calls, warm, beyond what its house floor adds over the same calls: its own rules and shaping. */
export const WARM_ALLOWANCE_MS = 0.5;
/** A 5 MiB create or claim may take this many times its calls' time: parsing, checking and shaping 5 MiB is the route's own work. */
export const LARGE_PAYLOAD_BUDGET = 1.15;
const WARM_UP_PAIRS = 10;
const MEASURED_PAIRS = 40;
const LARGE_PAIRS = 4;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** One request's figures, and what it sent and answered. */
interface Invocation {
  totalMs: number;
  callsMs: number;
  commands: string[];
  requestBytes: number;
  responseBytes: number;
  body?: string;
}

/** One kind of request: its DynamoDB usage and bodies, and over the measured requests the medians of the handler's time and its calls'. */
export interface Measured {
  usage: DynamoDbUsage;
  requestBytes: number;
  responseBytes: number;
  handlerMs: number;
  callsMs: number;
}

export interface WarmRow extends Measured {
  name: string;
  kind: BenchFunction['kind'];
  commands: string[];
  /** What its house floor was handed: the same commands. */
  floorEvent: unknown;
  /** Medians of the handler's time less its calls', for the function and its house floor. */
  addedMs: number;
  floorAddedMs: number;
  /** What the function adds over its calls less what its house floor adds over the same calls, pair by pair; against WARM_ALLOWANCE_MS. */
  overFloorMs: Judged;
}

export interface LargeFigure extends Measured {
  /** Handler time ÷ calls' time, per request pooled, against LARGE_PAYLOAD_BUDGET. */
  ratio: Judged;
}

export interface LargePayloads {
  create: LargeFigure;
  claim: LargeFigure;
  /** A 5 MiB secret's deletion, counted only: the cost model's deferred deletion. */
  revoke: DynamoDbUsage;
}

const loadHandler = async (entry: string): Promise<Handler> => ((await import(path.resolve(__dirname, '..', entry))) as { handler: Handler }).handler;

let requestNumber = 0;

async function invoke(name: string, handler: Handler, event: unknown): Promise<Invocation> {
  const context = lambdaContext(name, `bench-${++requestNumber}`, 30_000);
  // Read before the call: middy's body parser puts the parsed body in its place.
  const requestBody = (event as { body?: string | null }).body;
  const requestBytes = typeof requestBody === 'string' ? Buffer.byteLength(requestBody) : 0;
  const { result, totalMs, callsMs, commands } = await withCallsSeen(() => handler(event, context));
  const failure = failureOf(result);
  if (failure !== undefined) throw new Error(`${name}: ${failure}`);
  const body = (result as Partial<APIGatewayProxyResult>).body;
  return {
    totalMs,
    callsMs,
    commands,
    requestBytes,
    responseBytes: body === undefined ? 0 : Buffer.byteLength(body),
    ...(body === undefined ? {} : { body }),
  };
}

const ms = (samples: readonly number[]): number => hundredths(median(samples));

export async function measureWarm(functions: readonly BenchFunction[]): Promise<WarmRow[]> {
  const rows: WarmRow[] = [];
  for (const target of functions) {
    const handler = await loadHandler(target.entry);
    const floorHandler = await loadHandler(HOUSE_FLOORS[target.kind]);
    const once = async (event: unknown): Promise<Invocation> => {
      const invocation = await invoke(target.name, handler, event);
      await target.confirm();
      return invocation;
    };
    // Counted apart: the usage middleware asks for the capacity, which the timed requests do not.
    const event = await target.nextEvent();
    const { result: first, usage } = await withDynamoDbUsage(() => once(event));
    const floorEvent = await target.floorEvent(first.commands);
    const pairs: { function: Invocation; floor: Invocation }[] = [];
    // A fresh copy each time: middy's body parser puts the parsed body in the event's place.
    for (let pair = -WARM_UP_PAIRS; pair < MEASURED_PAIRS; pair++) {
      const measured = {
        function: await once(await target.nextEvent()),
        floor: await invoke(`${target.name} floor`, floorHandler, structuredClone(floorEvent)),
      };
      if (pair >= 0) pairs.push(measured);
    }
    const added = (side: 'function' | 'floor'): number[] => pairs.map((each) => each[side].totalMs - each[side].callsMs);
    rows.push({
      name: target.name,
      kind: target.kind,
      usage,
      commands: first.commands,
      floorEvent,
      requestBytes: first.requestBytes,
      responseBytes: first.responseBytes,
      handlerMs: ms(pairs.map((each) => each.function.totalMs)),
      callsMs: ms(pairs.map((each) => each.function.callsMs)),
      addedMs: ms(added('function')),
      floorAddedMs: ms(added('floor')),
      overFloorMs: judge(pairedDifferenceInterval(added('function'), added('floor')), WARM_ALLOWANCE_MS),
    });
  }
  return rows;
}

function routeNamed(name: RouteName): RouteDefinition {
  const route = ROUTES.find((each) => each.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
}

/** 5 MiB secrets created and claimed (the last view) through their routes, one pair untimed first. */
export async function measureLargePayloads(): Promise<LargePayloads> {
  const [createRoute, claimRoute, revokeRoute] = [routeNamed('secrets-create'), routeNamed('secrets-claim'), routeNamed('secrets-revoke')];
  const [create, claim, revoke] = [
    await loadHandler(routeEntry(createRoute)),
    await loadHandler(routeEntry(claimRoute)),
    await loadHandler(routeEntry(revokeRoute)),
  ];
  const body = JSON.stringify({ data: dataFilling(MAX_BODY_BYTES) });
  const owner = await freshKey();
  const headers = { Authorization: `Bearer ${owner.key}`, 'Content-Type': 'application/json' };
  const created = async (): Promise<{ invocation: Invocation; id: string }> => {
    const invocation = await invoke(createRoute.name, create, routeEvent(createRoute, { headers, body }));
    return { invocation, id: (JSON.parse(invocation.body ?? '{}') as { id: string }).id };
  };
  const claimed = (id: string): Promise<Invocation> => invoke(claimRoute.name, claim, routeEvent(claimRoute, { headers, pathParameters: { id } }));

  const pairs: { create: Invocation; claim: Invocation }[] = [];
  for (let pair = 0; pair <= LARGE_PAIRS; pair++) {
    const made = await created();
    const taken = await claimed(made.id);
    // The first pair runs paths no smaller request took: untimed.
    if (pair > 0) pairs.push({ create: made.invocation, claim: taken });
  }
  const countedCreate = await withDynamoDbUsage(created);
  const countedClaim = await withDynamoDbUsage(() => claimed(countedCreate.result.id));
  const toRevoke = await created();
  const countedRevoke = await withDynamoDbUsage(() =>
    invoke(revokeRoute.name, revoke, routeEvent(revokeRoute, { headers, pathParameters: { id: toRevoke.id } })),
  );

  const figure = (side: 'create' | 'claim', usage: DynamoDbUsage): LargeFigure => {
    const invocations = pairs.map((pair) => pair[side]);
    const sample = invocations[0] as Invocation;
    return {
      usage,
      requestBytes: sample.requestBytes,
      responseBytes: sample.responseBytes,
      handlerMs: ms(invocations.map((each) => each.totalMs)),
      callsMs: ms(invocations.map((each) => each.callsMs)),
      ratio: judge(
        pairedRatioInterval(
          invocations.map((each) => each.totalMs),
          invocations.map((each) => each.callsMs),
        ),
        LARGE_PAYLOAD_BUDGET,
      ),
    };
  };
  return { create: figure('create', countedCreate.usage), claim: figure('claim', countedClaim.usage), revoke: countedRevoke.usage };
}
