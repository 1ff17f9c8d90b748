import { DATA_CHUNK_BYTES, SECRET_DEFAULTS, SECRET_TTLS } from '#contract/limits';
import { DELIVERY_BATCH_SIZE, FAN_OUT_BATCH_SIZE } from '#lambdas/definitions/webhooks';
import { AWS_PRICES as PRICES, type PricedService, type Rate } from './prices';
import { hundredths } from './stats';
import type { LargePayloads, WarmRow } from './warm';

/**
 * Cost per million requests on AWS, from what the benchmark measured in local mode and AWS's
 * published prices (bench/prices.ts), for our stack, for our stack behind an HTTP API instead of
 * its REST API, and for the architecture of Yopass's own AWS deployment.
 */

/** What the benchmark measured for one kind of request, in local mode. */
export interface MeasuredRequest {
  /** e.g. 'POST /secrets 1 KB', 'GET /secrets/:id (last view)', 'GET /keys', 'POST /secrets 5 MiB', 'GET /secrets/:id 5 MiB (last view)' */
  name: string;
  /** Consumed capacity per request as DynamoDB reported it (ReturnConsumedCapacity TOTAL), summed over the request's calls. */
  readUnits: number;
  writeUnits: number;
  /** Billed-duration estimate for the handler (ms): its measured warm median. */
  handlerMs: number;
  requestBytes: number;
  responseBytes: number;
}

export interface CostInputs {
  requests: MeasuredRequest[];
  /** Off-request-path work per secret, measured too. */
  pipeline: {
    /**
     * The fan-out's deletion of a secret after its last view, in write units. DynamoDB bills a
     * delete by the size of the item deleted, so a 5 MiB secret's deletion costs about as much as
     * writing it: one figure per secret size.
     */
    deletionWriteUnits: { secret1Kb: number; secret5MiB: number };
    /** Handler ms of one fan-out invocation. */
    fanOutMsPerBatch: number;
    /** Handler ms of one delivery invocation carrying one job. */
    deliveryMsPerJob: number;
  };
}

/** The names estimateCosts looks the measured requests up by. */
export const MEASURED_REQUESTS = {
  create1Kb: 'POST /secrets 1 KB',
  claim1Kb: 'GET /secrets/:id (last view)',
  readKey: 'GET /keys',
  create5MiB: 'POST /secrets 5 MiB',
  claim5MiB: 'GET /secrets/:id 5 MiB (last view)',
} as const;

/** Dollars, for one scenario and one architecture. */
export interface CostBreakdown {
  apiGateway: number;
  /** The functions that answer requests: invocations and duration. */
  lambda: number;
  /** Capacity the requests themselves consume. */
  dynamoDb: number;
  /** Off the request path, with or without webhooks: fan-out invocations, their key reads, the deferred deletion. */
  streamFanOut: number;
  storage: number;
  dataTransferOut: number;
  /** Per webhook job: SQS requests, the delivery invocation and its key read. Only in totalWithWebhooks. */
  webhookJobs: number;
}

export interface ArchitectureEstimate {
  architecture: string;
  costs: CostBreakdown;
  totalWithoutWebhooks: number;
  totalWithWebhooks: number;
  /** One secret created and claimed, everything it causes included, no webhooks: what Yopass does too. */
  perSecretWithoutWebhooks: number;
  /** perSecretWithoutWebhooks ÷ Yopass's, to hundredths; absent where Yopass cannot do the work. */
  ratioToYopass?: number;
}

export type YopassEstimate = ArchitectureEstimate | { architecture: string; unsupported: string };

export interface ScenarioEstimate {
  title: string;
  workload: string;
  requests: { name: string; count: number }[];
  secrets: number;
  ours: { restApi: ArchitectureEstimate; httpApi: ArchitectureEstimate };
  yopass: YopassEstimate;
  /** How HTTP API would meter these requests: by the larger body (as estimated) and by request bodies alone. */
  httpApiMetering: { requests: number; metered: number; meteredByRequestBodiesOnly: number; costByRequestBodiesOnly: number };
}

export interface CostReport {
  scenarios: ScenarioEstimate[];
  assumptions: string[];
  prices: PricedService[];
}

const MILLION = 1_000_000;
const GIB = 1024 ** 3;
const HOURS_PER_MONTH = 730;

/** Memory of each of our functions as lib/route-functions.ts and lib/webhook-pipeline.ts configure them; all arm64. */
const OUR_MEMORY_MB = { route: 512, fanOut: 512, delivery: 256 } as const;

/** A key item is far below 4 KB, and the fan-out and delivery read it strongly consistent: one unit a read. */
const KEY_READ_UNITS = 1;
/**
 * secret.created and, for the claim that takes the last view, secret.expired: the fan-out reads the
 * owner's key for each, and queues a job for each when the key has a webhook.
 */
const EVENTS_PER_SECRET = 2;
/** SendMessage (a message is far below 64 KB), and the event source mapping's ReceiveMessage and DeleteMessage. */
const SQS_REQUESTS_PER_MESSAGE = 3;
const SQS_MESSAGE_USD = (SQS_REQUESTS_PER_MESSAGE * PRICES.sqsStandard.rates.requests.usd) / MILLION;
/** The create's insert and the last view's update; a chunked secret's last reader signing off updates the head once more. */
const headChangesPerSecret = (chunked: boolean): number => (chunked ? 3 : 2);
/**
 * A chunked secret's last view also queues its deletion for when every claim of it has surely
 * ended, in case a sign-off never settles: a delayed message (SQS requests as a job's) and one
 * more fan-out invocation, whose deletes of head and chunks find them gone (a write unit each).
 */
const chunkedDeletionBackstopUsd = (dataCharacters: number, fanOutMs: number): number =>
  SQS_MESSAGE_USD + lambdaInvocationUsd(OUR_MEMORY_MB.fanOut, fanOutMs) + dynamoDbUsd(0, 1 + Math.ceil(dataCharacters / DATA_CHUNK_BYTES));

/**
 * Yopass's own AWS deployment, as jhaals/yopass deploy/cdk/lib/cdk-stack.ts defines it: one Go
 * function (provided.al2023, arm64, 128 MB) behind a LambdaRestApi, one DynamoDB table keyed by
 * id, provisioned at 10 RCU and 10 WCU. deploy/cdk/dynamo.go stores a secret as one item
 * (PutItem) and reads a one-time secret with a strongly consistent GetItem and a conditional
 * DeleteItem.
 */
const YOPASS = {
  memoryMb: 128,
  /** MAX_LENGTH (text) and MAX_FILE_SIZE (files) in the stack. */
  maxTextCharacters: 10_000,
  maxFileBytes: 128 * 1024,
  provisionedUnits: { read: 10, write: 10 },
  /** Its item's other attributes with their names: id (a UUID), one_time, require_auth, ttl, revision. */
  itemOverheadBytes: 100,
} as const;

const DYNAMODB_WRITE_UNIT_BYTES = PRICES.dynamoDbOnDemand.rates.writeRequestUnits.meteredInBytes;
const DYNAMODB_READ_UNIT_BYTES = PRICES.dynamoDbOnDemand.rates.readRequestUnits.meteredInBytes;
const HTTP_API_INCREMENT_BYTES = PRICES.httpApi.rates.requests.meteredInBytes;

/** Requests HTTP API bills for a request whose larger body is `bytes`: one per started 512 KB. */
export const httpApiMeteredRequests = (bytes: number): number => Math.max(1, Math.ceil(bytes / HTTP_API_INCREMENT_BYTES));

/** Lambda bills duration rounded up to the millisecond, times the configured memory in GB. */
export const lambdaGbSeconds = (memoryMb: number, handlerMs: number): number => (memoryMb / 1024) * (Math.ceil(handlerMs) / 1000);

/** A write or delete takes one unit per started KB of the item. */
export const writeUnitsFor = (itemBytes: number): number => Math.max(1, Math.ceil(itemBytes / DYNAMODB_WRITE_UNIT_BYTES));

/** A strongly consistent read takes one unit per started 4 KB of the item. */
export const strongReadUnitsFor = (itemBytes: number): number => Math.max(1, Math.ceil(itemBytes / DYNAMODB_READ_UNIT_BYTES));

const lambdaInvocationUsd = (memoryMb: number, handlerMs: number): number =>
  PRICES.lambdaArm64.rates.requests.usd / MILLION + lambdaGbSeconds(memoryMb, handlerMs) * PRICES.lambdaArm64.rates.duration.usd;

const dynamoDbUsd = (readUnits: number, writeUnits: number): number =>
  (readUnits * PRICES.dynamoDbOnDemand.rates.readRequestUnits.usd + writeUnits * PRICES.dynamoDbOnDemand.rates.writeRequestUnits.usd) / MILLION;

/** A stored secret waits for its claim at most its ttl; the default ttl is the dwell we price. */
const STORAGE_DWELL_MONTHS = SECRET_TTLS[SECRET_DEFAULTS.ttl] / (HOURS_PER_MONTH * 60 * 60 * 1000);
const storageUsd = (bytes: number): number => (bytes / GIB) * STORAGE_DWELL_MONTHS * PRICES.dynamoDbOnDemand.rates.storage.usd;
/** We store a secret's base64 data as binary (lambdas/store/secret-store.ts): 3 bytes per 4 characters. */
const OUR_STORED_BYTES_PER_DATA_CHARACTER = 3 / 4;

const transferOutUsd = (bytes: number): number => (bytes / GIB) * PRICES.dataTransferOut.rates.internet.usd;

type Counted = { request: MeasuredRequest; count: number };

/** Secrets created and claimed once each (their last view), plus requests unrelated to any secret. */
interface Workload {
  title: string;
  description: string;
  create: MeasuredRequest;
  claim: MeasuredRequest;
  secrets: number;
  others: readonly Counted[];
  deletionWriteUnits: number;
}

const countedRequests = (workload: Workload): Counted[] => [
  { request: workload.create, count: workload.secrets },
  { request: workload.claim, count: workload.secrets },
  ...workload.others,
];

const sumOver = (counted: readonly Counted[], usdPerRequest: (request: MeasuredRequest) => number): number =>
  counted.reduce((sum, { request, count }) => sum + count * usdPerRequest(request), 0);

const largerBody = (request: MeasuredRequest): number => Math.max(request.requestBytes, request.responseBytes);

type Gateway = 'restApi' | 'httpApi';

function ourCosts(workload: Workload, gateway: Gateway, pipeline: CostInputs['pipeline']): CostBreakdown {
  const counted = countedRequests(workload);
  // The body is the data plus a few dozen bytes of JSON: near enough to tell 1 KB from 5 MiB.
  const chunked = workload.create.requestBytes > DATA_CHUNK_BYTES;
  const fanOutPerSecret =
    headChangesPerSecret(chunked) * lambdaInvocationUsd(OUR_MEMORY_MB.fanOut, pipeline.fanOutMsPerBatch) +
    dynamoDbUsd(EVENTS_PER_SECRET * KEY_READ_UNITS, workload.deletionWriteUnits) +
    (chunked ? chunkedDeletionBackstopUsd(workload.create.requestBytes, pipeline.fanOutMsPerBatch) : 0);
  const perJob = SQS_MESSAGE_USD + lambdaInvocationUsd(OUR_MEMORY_MB.delivery, pipeline.deliveryMsPerJob) + dynamoDbUsd(KEY_READ_UNITS, 0);
  return {
    apiGateway:
      gateway === 'restApi'
        ? sumOver(counted, () => PRICES.restApi.rates.requests.usd / MILLION)
        : sumOver(counted, (request) => (httpApiMeteredRequests(largerBody(request)) * PRICES.httpApi.rates.requests.usd) / MILLION),
    lambda: sumOver(counted, (request) => lambdaInvocationUsd(OUR_MEMORY_MB.route, request.handlerMs)),
    dynamoDb: sumOver(counted, (request) => dynamoDbUsd(request.readUnits, request.writeUnits)),
    streamFanOut: workload.secrets * fanOutPerSecret,
    storage: workload.secrets * storageUsd(workload.create.requestBytes * OUR_STORED_BYTES_PER_DATA_CHARACTER),
    dataTransferOut: sumOver(counted, (request) => transferOutUsd(request.responseBytes)),
    webhookJobs: workload.secrets * EVENTS_PER_SECRET * perJob,
  };
}

/** Why Yopass's stack cannot store this workload's secrets, or undefined if it can. */
function yopassRefusal(workload: Workload): string | undefined {
  if (workload.create.requestBytes <= YOPASS.maxFileBytes) return undefined;
  return (
    `not supported: Yopass's stack accepts at most ${YOPASS.maxTextCharacters.toLocaleString('en-US')} characters of text ` +
    `or ${YOPASS.maxFileBytes / 1024} KB files (MAX_LENGTH, MAX_FILE_SIZE), and it keeps each secret in one DynamoDB item, which cannot exceed 400 KB`
  );
}

/** Yopass doing the same secrets: it has no keys, so the workload's other requests have no counterpart. */
function yopassCosts(workload: Workload): CostBreakdown {
  const secretRequests = countedRequests({ ...workload, others: [] });
  const itemBytes = workload.create.requestBytes + YOPASS.itemOverheadBytes;
  // PutItem, then GetItem and DeleteItem of the same item.
  const unitsPerSecret = { read: strongReadUnitsFor(itemBytes), write: 2 * writeUnitsFor(itemBytes) };
  return {
    apiGateway: sumOver(secretRequests, () => PRICES.restApi.rates.requests.usd / MILLION),
    lambda: sumOver(secretRequests, (request) => lambdaInvocationUsd(YOPASS.memoryMb, request.handlerMs)),
    dynamoDb: workload.secrets * dynamoDbUsd(unitsPerSecret.read, unitsPerSecret.write),
    streamFanOut: 0,
    storage: workload.secrets * storageUsd(workload.create.requestBytes),
    dataTransferOut: sumOver(secretRequests, (request) => transferOutUsd(request.responseBytes)),
    webhookJobs: 0,
  };
}

const totalWithoutWebhooks = (costs: CostBreakdown): number =>
  costs.apiGateway + costs.lambda + costs.dynamoDb + costs.streamFanOut + costs.storage + costs.dataTransferOut;

/** Keeps the report readable as JSON; the rendering rounds further. */
const roundUsd = (usd: number): number => Number(usd.toPrecision(6));

const roundCosts = (costs: CostBreakdown): CostBreakdown => ({
  apiGateway: roundUsd(costs.apiGateway),
  lambda: roundUsd(costs.lambda),
  dynamoDb: roundUsd(costs.dynamoDb),
  streamFanOut: roundUsd(costs.streamFanOut),
  storage: roundUsd(costs.storage),
  dataTransferOut: roundUsd(costs.dataTransferOut),
  webhookJobs: roundUsd(costs.webhookJobs),
});

function architectureEstimate(
  architecture: string,
  costsOf: (workload: Workload) => CostBreakdown,
  workload: Workload,
  yopassPerSecret: number | undefined,
): ArchitectureEstimate {
  const costs = costsOf(workload);
  const oneSecret = costsOf({ ...workload, secrets: 1, others: [] });
  const perSecret = totalWithoutWebhooks(oneSecret);
  return {
    architecture,
    costs: roundCosts(costs),
    totalWithoutWebhooks: roundUsd(totalWithoutWebhooks(costs)),
    totalWithWebhooks: roundUsd(totalWithoutWebhooks(costs) + costs.webhookJobs),
    perSecretWithoutWebhooks: roundUsd(perSecret),
    ...(yopassPerSecret === undefined ? {} : { ratioToYopass: hundredths(perSecret / yopassPerSecret) }),
  };
}

const ARCHITECTURES = {
  restApi: 'Ours: REST API',
  httpApi: 'Ours on an HTTP API',
  yopass: "Yopass's CDK stack",
} as const;

function estimateScenario(workload: Workload, pipeline: CostInputs['pipeline']): ScenarioEstimate {
  const refusal = yopassRefusal(workload);
  const yopassPerSecret = refusal === undefined ? totalWithoutWebhooks(yopassCosts({ ...workload, secrets: 1, others: [] })) : undefined;
  const ours = (gateway: Gateway): ArchitectureEstimate =>
    architectureEstimate(ARCHITECTURES[gateway], (w) => ourCosts(w, gateway, pipeline), workload, yopassPerSecret);
  const yopass: YopassEstimate =
    refusal === undefined
      ? architectureEstimate(ARCHITECTURES.yopass, yopassCosts, workload, yopassPerSecret)
      : { architecture: ARCHITECTURES.yopass, unsupported: refusal };

  const counted = countedRequests(workload);
  const meteredByRequestBodiesOnly = sumOver(counted, (request) => httpApiMeteredRequests(request.requestBytes));
  return {
    title: workload.title,
    workload: workload.description,
    requests: counted.map(({ request, count }) => ({ name: request.name, count })),
    secrets: workload.secrets,
    ours: { restApi: ours('restApi'), httpApi: ours('httpApi') },
    yopass,
    httpApiMetering: {
      requests: sumOver(counted, () => 1),
      metered: sumOver(counted, (request) => httpApiMeteredRequests(largerBody(request))),
      meteredByRequestBodiesOnly,
      costByRequestBodiesOnly: roundUsd((meteredByRequestBodiesOnly * PRICES.httpApi.rates.requests.usd) / MILLION),
    },
  };
}

const REQUESTS_PER_SCENARIO = 1_000_000;
export const SCENARIO_TITLES = { typicalMix: 'Typical mix', largeSecrets: '5 MiB secrets' } as const;
/** The typical mix: 45% creates and 45% claims (each secret created, then claimed once), 10% key reads. */
const TYPICAL_MIX = { secrets: 0.45, keyReads: 0.1 } as const;

function measured(requests: readonly MeasuredRequest[], name: string): MeasuredRequest {
  const found = requests.find((request) => request.name === name);
  if (!found) throw new Error(`cost estimate: no measurement named '${name}'`);
  return found;
}

const formatCount = (n: number): string => n.toLocaleString('en-US');
const writeUnits = (n: number): string => `${formatCount(n)} write unit${n === 1 ? '' : 's'}`;

function workloadsOf(inputs: CostInputs): Workload[] {
  const find = (name: string) => measured(inputs.requests, name);
  const secretsInMix = REQUESTS_PER_SCENARIO * TYPICAL_MIX.secrets;
  const keyReads = REQUESTS_PER_SCENARIO * TYPICAL_MIX.keyReads;
  const largeSecrets = REQUESTS_PER_SCENARIO / 2;
  return [
    {
      title: SCENARIO_TITLES.typicalMix,
      description:
        `${formatCount(REQUESTS_PER_SCENARIO)} requests: ${formatCount(secretsInMix)} creates of a 1 KB secret (1 view), ` +
        `${formatCount(secretsInMix)} claims taking that view, ${formatCount(keyReads)} GET /keys.`,
      create: find(MEASURED_REQUESTS.create1Kb),
      claim: find(MEASURED_REQUESTS.claim1Kb),
      secrets: secretsInMix,
      others: [{ request: find(MEASURED_REQUESTS.readKey), count: keyReads }],
      deletionWriteUnits: inputs.pipeline.deletionWriteUnits.secret1Kb,
    },
    {
      title: SCENARIO_TITLES.largeSecrets,
      description: `${formatCount(REQUESTS_PER_SCENARIO)} requests: ${formatCount(largeSecrets)} creates of a 5 MiB secret (1 view), ${formatCount(largeSecrets)} claims taking that view.`,
      create: find(MEASURED_REQUESTS.create5MiB),
      claim: find(MEASURED_REQUESTS.claim5MiB),
      secrets: largeSecrets,
      others: [],
      deletionWriteUnits: inputs.pipeline.deletionWriteUnits.secret5MiB,
    },
  ];
}

const usd = (amount: number): string => {
  if (amount === 0) return '$0';
  if (amount >= 100) return `$${Math.round(amount).toLocaleString('en-US')}`;
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${amount.toLocaleString('en-US', { maximumSignificantDigits: 3 })}`;
};

function assumptionsOf(inputs: CostInputs, scenarios: readonly ScenarioEstimate[]): string[] {
  const yopassTableUsdPerMonth =
    HOURS_PER_MONTH *
    (YOPASS.provisionedUnits.write * PRICES.dynamoDbProvisioned.rates.writeCapacityUnitHours.usd +
      YOPASS.provisionedUnits.read * PRICES.dynamoDbProvisioned.rates.readCapacityUnitHours.usd);
  const large = scenarios.find((scenario) => scenario.title === SCENARIO_TITLES.largeSecrets);
  const httpByRequestBodies = large
    ? ` Counting request bodies only, the 5 MiB scenario's ${formatCount(large.httpApiMetering.metered)} metered requests would be ` +
      `${formatCount(large.httpApiMetering.meteredByRequestBodiesOnly)}, ${usd(large.httpApiMetering.costByRequestBodiesOnly)} instead of ` +
      `${usd(large.ours.httpApi.costs.apiGateway)}.`
    : '';
  return [
    'us-east-1 list prices, first tier, on-demand; no free tier, no Savings Plans.',
    'Capacity units are those DynamoDB Local reported for each call (ReturnConsumedCapacity TOTAL), taken to be what DynamoDB on AWS would bill.',
    `Lambda duration is the measured warm median handler time, rounded up to the millisecond, at the configured memory (routes ${OUR_MEMORY_MB.route} MB, ` +
      `fan-out ${OUR_MEMORY_MB.fanOut} MB, delivery ${OUR_MEMORY_MB.delivery} MB, arm64). Cold starts are left out: their INIT phase is billed ` +
      'since August 2025, and AWS reports INITs in under 1% of invocations.',
    `One fan-out invocation per head change that passes the stream filter: a secret's insert and its last view, and for a chunked secret ` +
      `(over ${formatCount(DATA_CHUNK_BYTES)} characters) the last reader signing off. At a million requests a month (0.4 a second) the stream seldom has ` +
      `more than one record to hand over; busier traffic shares an invocation among up to ${FAN_OUT_BATCH_SIZE} records. Each record that carries ` +
      `an event reads its key once (${KEY_READ_UNITS} read unit); Lambda's stream reads are free. The fan-out's deletion of a claimed secret ` +
      `costs what the benchmark measured: ${writeUnits(inputs.pipeline.deletionWriteUnits.secret1Kb)} for a 1 KB secret, ` +
      `${writeUnits(inputs.pipeline.deletionWriteUnits.secret5MiB)} for a 5 MiB one. A chunked secret's last view also queues its deletion ` +
      `for when every claim of it has surely ended (in case a reader's sign-off never settles): ${SQS_REQUESTS_PER_MESSAGE} SQS requests, one more ` +
      'fan-out invocation, and a write unit for each item it finds already gone.',
    `"No webhooks": no key has one, so no job is queued. "Every key has a webhook": ${EVENTS_PER_SECRET} jobs per secret (secret.created, ` +
      `secret.expired), each ${SQS_REQUESTS_PER_MESSAGE} SQS requests (send, receive, delete; one job per delivery batch at this rate, up to ` +
      `${DELIVERY_BATCH_SIZE} when busier), a delivery invocation of ${inputs.pipeline.deliveryMsPerJob} ms and a key read; no retries. The event ` +
      "source mapping's long polling also makes empty receives at any traffic, a fixed few hundred thousand requests (well under $1) a month, not counted here.",
    `Storage: each secret waits its default ttl (${SECRET_DEFAULTS.ttl}) before its claim, a bound for claimed secrets; it scales with the wait. Ours holds its data as binary, 3 bytes per 4 base64 characters; Yopass's holds the text.`,
    'Data transfer out counts response bodies at the first-tier rate (1 GB = 2³⁰ bytes); requests come in free. The same responses cost the same ' +
      'on every architecture. Webhook bodies (a few hundred bytes a job) are not counted: about $0.03 per million jobs.',
    `HTTP API meters a request in 512 KB (524,288-byte) increments; AWS does not say whether response bodies count, so each request is metered ` +
      `by the larger of its two bodies.${httpByRequestBodies}`,
    `Yopass: jhaals/yopass deploy/cdk/lib/cdk-stack.ts (one Go function, provided.al2023, arm64, ${YOPASS.memoryMb} MB, behind a REST API; one ` +
      'DynamoDB table) and deploy/cdk/dynamo.go (PutItem to create; a one-time read is a strongly consistent GetItem and a conditional DeleteItem). ' +
      `Its item is the same ciphertext as our create's request body plus about ${YOPASS.itemOverheadBytes} bytes of other attributes; a delete ` +
      'takes as many write units as the write. Its handler is not measured: it is charged our handler times for the same operation. Its table is ' +
      `priced on-demand like ours, though its stack provisions ${YOPASS.provisionedUnits.read} RCU and ${YOPASS.provisionedUnits.write} WCU ` +
      `(${usd(yopassTableUsdPerMonth)} a month at any traffic, and a ceiling of 10 KB of writes a second).`,
    "Yopass's stack has no per-caller API keys, no per-key rate limits and no webhooks (its server's webhook notifier and static API tokens are " +
      'not configured there): the comparison is per secret lifecycle, create and one-time read, and our key reads have no counterpart.',
  ];
}

export function estimateCosts(inputs: CostInputs): CostReport {
  const scenarios = workloadsOf(inputs).map((workload) => estimateScenario(workload, inputs.pipeline));
  return { scenarios, assumptions: assumptionsOf(inputs, scenarios), prices: Object.values(PRICES) };
}

/** The cost model's inputs from the run: the typical mix's requests, the 5 MiB ones and the pipeline's, as measured. */
export function costsOf(warm: readonly WarmRow[], large: LargePayloads): CostReport {
  const row = (name: string): WarmRow => {
    const found = warm.find((each) => each.name === name);
    if (!found) throw new Error(`cost estimate: no function ${name} measured`);
    return found;
  };
  const request = (name: string, from: Pick<WarmRow, 'usage' | 'handlerMs' | 'requestBytes' | 'responseBytes'>): MeasuredRequest => ({
    name,
    readUnits: from.usage.readUnits,
    writeUnits: from.usage.writeUnits,
    handlerMs: from.handlerMs,
    requestBytes: from.requestBytes,
    responseBytes: from.responseBytes,
  });
  // A revocation deletes what the fan-out deletes after the last view; less its authentication, which a key read makes alone.
  const authenticationUnits = row('keys-get').usage.writeUnits;
  return estimateCosts({
    requests: [
      request(MEASURED_REQUESTS.create1Kb, row('secrets-create')),
      request(MEASURED_REQUESTS.claim1Kb, row('secrets-claim')),
      request(MEASURED_REQUESTS.readKey, row('keys-get')),
      request(MEASURED_REQUESTS.create5MiB, large.create),
      request(MEASURED_REQUESTS.claim5MiB, large.claim),
    ],
    pipeline: {
      deletionWriteUnits: {
        secret1Kb: row('secrets-revoke').usage.writeUnits - authenticationUnits,
        secret5MiB: large.revoke.writeUnits - authenticationUnits,
      },
      fanOutMsPerBatch: row('webhook-fan-out').handlerMs,
      deliveryMsPerJob: row('webhook-delivery').handlerMs,
    },
  });
}

const publishedRate = (rate: Rate): string =>
  rate.usd === 0
    ? `free per ${rate.per}`
    : `$${rate.usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 10 })} per ${rate.per}`;

const isSupported = (estimate: YopassEstimate): estimate is ArchitectureEstimate => !('unsupported' in estimate);

const COST_LINES: readonly { line: keyof CostBreakdown; label: string; oursOnly?: true }[] = [
  { line: 'apiGateway', label: 'API Gateway' },
  { line: 'lambda', label: 'Lambda, request path' },
  { line: 'dynamoDb', label: 'DynamoDB, request path' },
  { line: 'streamFanOut', label: 'Stream fan-out and deferred deletion', oursOnly: true },
  { line: 'storage', label: `Storage, each secret kept ${SECRET_DEFAULTS.ttl}` },
  { line: 'dataTransferOut', label: 'Data transfer out' },
];

function scenarioSection(scenario: ScenarioEstimate): string[] {
  const columns: ArchitectureEstimate[] = [scenario.ours.restApi, scenario.ours.httpApi];
  const yopass = isSupported(scenario.yopass) ? scenario.yopass : undefined;
  if (yopass) columns.push(yopass);
  const row = (label: string, cell: (estimate: ArchitectureEstimate) => string) => `| ${label} | ${columns.map(cell).join(' | ')} |`;
  // Yopass has neither a stream consumer nor webhooks: a dash, not a $0 that reads like a saving.
  const oursOnly = (estimate: ArchitectureEstimate, value: string) => (estimate === yopass ? '—' : value);

  const lines = [
    `### ${scenario.title}`,
    '',
    scenario.workload + (yopass ? ` The Yopass column does the same ${formatCount(scenario.secrets)} secrets; it has no keys.` : ''),
    '',
    `| Dollars | ${columns.map((estimate) => estimate.architecture).join(' | ')} |`,
    `|---|${columns.map(() => '--:').join('|')}|`,
    ...COST_LINES.map(({ line, label, oursOnly: onlyOurs }) =>
      row(label, (estimate) => (onlyOurs ? oursOnly(estimate, usd(estimate.costs[line])) : usd(estimate.costs[line]))),
    ),
    row('**Total, no webhooks**', (estimate) => `**${usd(estimate.totalWithoutWebhooks)}**`),
    row('Webhook jobs (SQS, delivery) if every key has a webhook', (estimate) => oursOnly(estimate, usd(estimate.costs.webhookJobs))),
    row('**Total, every key has a webhook**', (estimate) => oursOnly(estimate, `**${usd(estimate.totalWithWebhooks)}**`)),
    row('Per 1,000 secrets (create + claim), no webhooks', (estimate) => usd(estimate.perSecretWithoutWebhooks * 1000)),
  ];
  if (yopass) lines.push(row('Ours ÷ Yopass, per secret', (estimate) => estimate.ratioToYopass?.toFixed(2) ?? ''));
  lines.push('');
  const metering = scenario.httpApiMetering;
  lines.push(
    `HTTP API meters these ${formatCount(metering.requests)} requests as ${formatCount(metering.metered)}` +
      (metering.metered === metering.requests ? '.' : ' (512 KB increments of the larger body).'),
  );
  if (!isSupported(scenario.yopass)) lines.push('', `Yopass: ${scenario.yopass.unsupported}.`);
  return lines;
}

export function renderCosts(report: CostReport): string {
  return [
    '## Cost per million requests on AWS',
    '',
    'Estimated from what the benchmark measured (capacity units, handler times, body sizes) and the published prices below; ' +
      'for comparison, the same work behind an HTTP API instead of our REST API, and on the architecture of Yopass’s own AWS deployment.',
    '',
    ...report.scenarios.flatMap((scenario) => [...scenarioSection(scenario), '']),
    '### Assumptions',
    '',
    ...report.assumptions.map((assumption) => `- ${assumption}`),
    '',
    '### Prices',
    '',
    '| Service | Rate | Tier | Authority | Figures read |',
    '|---|---|---|---|---|',
    ...report.prices.flatMap((service) =>
      Object.values(service.rates).map(
        (rate) => `| ${service.service} | ${publishedRate(rate)} | ${rate.tier} | ${service.authority} | ${service.checked} |`,
      ),
    ),
    '',
    ...report.prices.flatMap((service) => (service.note ? [`- ${service.service}: ${service.note}`] : [])),
    '',
  ].join('\n');
}
