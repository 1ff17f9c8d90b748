import * as path from 'node:path';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { MAX_BODY_BYTES } from '#contract/limits';
import { ROUTES, routeEntry, type RouteName } from '#lambdas/definitions/routes';
import { withDynamoDbUsage, type DynamoDbUsage } from '#local/dynamodb-usage';
import { lambdaContext } from '#local/lambda-context';
import { dataFilling } from '#test/support/api';
import { withCallsSeen } from './calls';
import { failureOf } from './cold-start/protocol';
import { freshKey, routeEvent, type RouteRequest } from './fixtures';
import { HOUSE_FLOORS, type BenchFunction } from './functions';
import { differenceOf, hundredths, judge, median, pairedInterval, ratioOf, type Judged } from './stats';

/**
 * Each function's handler, warm, invoked in this process as Lambda invokes it, in turn with its house
 * floor: calls and capacity counted by local mode's usage middleware, and the ms each adds over its calls.
 */

/** A function may add this much over its bare calls, warm, beyond what its house floor adds over the same calls: its own rules and shaping. */
export const WARM_ALLOWANCE_MS = 0.5;
/** A 5 MiB create or claim may take this many times its calls' time: parsing, checking and shaping 5 MiB is the route's own work. */
export const LARGE_PAYLOAD_BUDGET = 1.15;
const WARM_UP_PAIRS = 10;
const MEASURED_PAIRS = 30;
const LARGE_PAIRS = 3;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

interface Invocation {
  totalMs: number;
  callsMs: number;
  commands: string[];
  requestBytes: number;
  responseBytes: number;
  /** The response's body; none for a pipeline function. */
  body: string;
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
  const body = (result as Partial<APIGatewayProxyResult>).body ?? '';
  return { totalMs, callsMs, commands, requestBytes, responseBytes: Buffer.byteLength(body), body };
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
      overFloorMs: judge(pairedInterval(added('function'), added('floor'), differenceOf), WARM_ALLOWANCE_MS),
    });
  }
  return rows;
}

/** Invokes a route's handler with one request. */
async function routeInvoker(name: RouteName): Promise<(request: RouteRequest) => Promise<Invocation>> {
  const route = ROUTES.find((each) => each.name === name);
  if (!route) throw new Error(`no route ${name}`);
  const handler = await loadHandler(routeEntry(route));
  return (request) => invoke(name, handler, routeEvent(route, request));
}

/** 5 MiB secrets created and claimed (the last view) through their routes, one pair untimed first. */
export async function measureLargePayloads(): Promise<LargePayloads> {
  const [create, claim, revoke] = [await routeInvoker('secrets-create'), await routeInvoker('secrets-claim'), await routeInvoker('secrets-revoke')];
  const owner = await freshKey();
  const headers = { Authorization: `Bearer ${owner.key}`, 'Content-Type': 'application/json' };
  const body = JSON.stringify({ data: dataFilling(MAX_BODY_BYTES) });
  const created = async (): Promise<Invocation & { id: string }> => {
    const invocation = await create({ headers, body });
    return { ...invocation, id: (JSON.parse(invocation.body) as { id: string }).id };
  };
  const claimed = (id: string): Promise<Invocation> => claim({ headers, pathParameters: { id } });
  const pairs: { create: Invocation; claim: Invocation }[] = [];
  for (let pair = 0; pair <= LARGE_PAIRS; pair++) {
    const made = await created();
    const taken = await claimed(made.id);
    // The first pair runs paths no smaller request took: untimed.
    if (pair > 0) pairs.push({ create: made, claim: taken });
  }
  const countedCreate = await withDynamoDbUsage(created);
  const countedClaim = await withDynamoDbUsage(() => claimed(countedCreate.result.id));
  const { id } = await created();
  const countedRevoke = await withDynamoDbUsage(() => revoke({ headers, pathParameters: { id } }));

  const figure = (side: 'create' | 'claim', usage: DynamoDbUsage): LargeFigure => {
    const [totalMs, callsMs] = [pairs.map((pair) => pair[side].totalMs), pairs.map((pair) => pair[side].callsMs)];
    const { requestBytes, responseBytes } = pairs[0]?.[side] ?? countedCreate.result;
    return {
      usage,
      requestBytes,
      responseBytes,
      handlerMs: ms(totalMs),
      callsMs: ms(callsMs),
      ratio: judge(pairedInterval(totalMs, callsMs, ratioOf), LARGE_PAYLOAD_BUDGET),
    };
  };
  return { create: figure('create', countedCreate.usage), claim: figure('claim', countedClaim.usage), revoke: countedRevoke.usage };
}
