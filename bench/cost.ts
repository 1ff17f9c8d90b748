import { DATA_CHUNK_BYTES, INLINE_DATA_MAX_BYTES, SECRET_DEFAULTS, SECRET_TTLS } from '#contract/limits';
import { DELIVERY_BATCH_SIZE, FAN_OUT_BATCH_SIZE } from '#lambdas/definitions/webhooks';
import { AWS_PRICES as PRICES, type PricedService, type Rate } from './prices';
import type { LargePayloads, Measured, WarmRow } from './warm';

/** Cost per million requests on AWS, from what the bench measured and AWS's published prices (bench/prices.ts). */

export interface MeasuredRequest {
  /** Consumed capacity per request as DynamoDB reported it (ReturnConsumedCapacity TOTAL), summed over the request's calls. */
  readUnits: number;
  writeUnits: number;
  /** Billed-duration estimate for the handler (ms): its measured warm median. */
  handlerMs: number;
  requestBytes: number;
  responseBytes: number;
}

export interface CostInputs {
  create1Kb: MeasuredRequest;
  /** The claim that takes a secret's last view. */
  claim1Kb: MeasuredRequest;
  readKey: MeasuredRequest;
  create5MiB: MeasuredRequest;
  claim5MiB: MeasuredRequest;
  /** Off-request-path work per secret, measured too. */
  pipeline: {
    /** The fan-out's deletion of a secret after its last view, in write units: DynamoDB bills a delete by the item's size. */
    deletionWriteUnits: { secret1Kb: number; secret5MiB: number };
    fanOutMsPerBatch: number;
    deliveryMsPerJob: number;
  };
}

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

export interface ScenarioEstimate {
  title: string;
  workload: string;
  secrets: number;
  costs: CostBreakdown;
  totalWithoutWebhooks: number;
  totalWithWebhooks: number;
  /** One secret created and claimed, everything it causes included, no webhooks. */
  perSecretWithoutWebhooks: number;
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
const MEMORY_MB = { route: 512, fanOut: 512, delivery: 256 } as const;
/** A key item is far below 4 KB, and the fan-out and delivery read it strongly consistent: one unit a read. */
const KEY_READ_UNITS = 1;
/** secret.created and, for the claim that takes the last view, secret.expired: the fan-out reads the owner's key for each. */
const EVENTS_PER_SECRET = 2;
/** SendMessage (a message is far below 64 KB), and the event source mapping's ReceiveMessage and DeleteMessage. */
const SQS_REQUESTS_PER_MESSAGE = 3;
const SQS_MESSAGE_USD = (SQS_REQUESTS_PER_MESSAGE * PRICES.sqsStandard.rates.requests.usd) / MILLION;
/** The create's insert and the last view's update; a chunked secret's last reader signing off updates the head once more. */
const headChangesPerSecret = (chunked: boolean): number => (chunked ? 3 : 2);

/** Lambda bills duration rounded up to the millisecond, times the configured memory in GB. */
export const lambdaGbSeconds = (memoryMb: number, handlerMs: number): number => (memoryMb / 1024) * (Math.ceil(handlerMs) / 1000);
const lambdaInvocationUsd = (memoryMb: number, handlerMs: number): number =>
  PRICES.lambdaArm64.rates.requests.usd / MILLION + lambdaGbSeconds(memoryMb, handlerMs) * PRICES.lambdaArm64.rates.duration.usd;
const dynamoDbUsd = (readUnits: number, writeUnits: number): number =>
  (readUnits * PRICES.dynamoDbOnDemand.rates.readRequestUnits.usd + writeUnits * PRICES.dynamoDbOnDemand.rates.writeRequestUnits.usd) / MILLION;

/**
 * A chunked secret's last view also queues its deletion for when every claim of it has surely
 * ended, in case a sign-off never settles: a delayed message (SQS requests as a job's) and one
 * more fan-out invocation, whose deletes of head and chunks find them gone (a write unit each).
 */
const chunkedDeletionBackstopUsd = (dataCharacters: number, fanOutMs: number): number =>
  SQS_MESSAGE_USD + lambdaInvocationUsd(MEMORY_MB.fanOut, fanOutMs) + dynamoDbUsd(0, 1 + Math.ceil(dataCharacters / DATA_CHUNK_BYTES));

/** A stored secret waits for its claim at most its ttl; the default ttl is the dwell we price. */
const STORAGE_DWELL_MONTHS = SECRET_TTLS[SECRET_DEFAULTS.ttl] / (HOURS_PER_MONTH * 60 * 60 * 1000);
/** We store a secret's base64 data as binary (lambdas/store/secret-store.ts): 3 bytes per 4 characters. */
const storageUsd = (dataCharacters: number): number =>
  ((dataCharacters * 3) / 4 / GIB) * STORAGE_DWELL_MONTHS * PRICES.dynamoDbOnDemand.rates.storage.usd;
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

function costsOfWorkload(workload: Workload, pipeline: CostInputs['pipeline']): CostBreakdown {
  const counted = countedRequests(workload);
  // The body is the data plus a few dozen bytes of JSON: near enough to tell 1 KB from 5 MiB.
  const chunked = workload.create.requestBytes > INLINE_DATA_MAX_BYTES;
  const fanOutPerSecret =
    headChangesPerSecret(chunked) * lambdaInvocationUsd(MEMORY_MB.fanOut, pipeline.fanOutMsPerBatch) +
    dynamoDbUsd(EVENTS_PER_SECRET * KEY_READ_UNITS, workload.deletionWriteUnits) +
    (chunked ? chunkedDeletionBackstopUsd(workload.create.requestBytes, pipeline.fanOutMsPerBatch) : 0);
  const perJob = SQS_MESSAGE_USD + lambdaInvocationUsd(MEMORY_MB.delivery, pipeline.deliveryMsPerJob) + dynamoDbUsd(KEY_READ_UNITS, 0);
  return {
    apiGateway: sumOver(counted, () => PRICES.restApi.rates.requests.usd / MILLION),
    lambda: sumOver(counted, (request) => lambdaInvocationUsd(MEMORY_MB.route, request.handlerMs)),
    dynamoDb: sumOver(counted, (request) => dynamoDbUsd(request.readUnits, request.writeUnits)),
    streamFanOut: workload.secrets * fanOutPerSecret,
    storage: workload.secrets * storageUsd(workload.create.requestBytes),
    dataTransferOut: sumOver(counted, (request) => transferOutUsd(request.responseBytes)),
    webhookJobs: workload.secrets * EVENTS_PER_SECRET * perJob,
  };
}

const totalWithoutWebhooks = (costs: CostBreakdown): number =>
  costs.apiGateway + costs.lambda + costs.dynamoDb + costs.streamFanOut + costs.storage + costs.dataTransferOut;

function estimateScenario(workload: Workload, pipeline: CostInputs['pipeline']): ScenarioEstimate {
  const costs = costsOfWorkload(workload, pipeline);
  const total = totalWithoutWebhooks(costs);
  return {
    title: workload.title,
    workload: workload.description,
    secrets: workload.secrets,
    costs,
    totalWithoutWebhooks: total,
    totalWithWebhooks: total + costs.webhookJobs,
    perSecretWithoutWebhooks: totalWithoutWebhooks(costsOfWorkload({ ...workload, secrets: 1, others: [] }, pipeline)),
  };
}

const REQUESTS_PER_SCENARIO = 1_000_000;
export const SCENARIO_TITLES = { typicalMix: 'Typical mix', largeSecrets: '5 MiB secrets' } as const;
/** The typical mix: 45% creates and 45% claims (each secret created, then claimed once), 10% key reads. */
const TYPICAL_MIX = { secrets: 0.45, keyReads: 0.1 } as const;

const formatCount = (n: number): string => n.toLocaleString('en-US');

function workloadsOf(inputs: CostInputs): Workload[] {
  const secretsInMix = REQUESTS_PER_SCENARIO * TYPICAL_MIX.secrets;
  const keyReads = REQUESTS_PER_SCENARIO * TYPICAL_MIX.keyReads;
  const largeSecrets = REQUESTS_PER_SCENARIO / 2;
  return [
    {
      title: SCENARIO_TITLES.typicalMix,
      description: `${formatCount(secretsInMix)} creates of a 1 KB secret (1 view), as many claims taking that view, ${formatCount(keyReads)} GET /keys`,
      create: inputs.create1Kb,
      claim: inputs.claim1Kb,
      secrets: secretsInMix,
      others: [{ request: inputs.readKey, count: keyReads }],
      deletionWriteUnits: inputs.pipeline.deletionWriteUnits.secret1Kb,
    },
    {
      title: SCENARIO_TITLES.largeSecrets,
      description: `${formatCount(largeSecrets)} creates of a 5 MiB secret (1 view), as many claims taking that view`,
      create: inputs.create5MiB,
      claim: inputs.claim5MiB,
      secrets: largeSecrets,
      others: [],
      deletionWriteUnits: inputs.pipeline.deletionWriteUnits.secret5MiB,
    },
  ];
}

const assumptionsOf = (inputs: CostInputs): string[] => [
  'us-east-1 list prices, first tier, on-demand, behind our REST API; no free tier, no Savings Plans. Capacity units as DynamoDB Local reported them.',
  `Lambda duration: the measured warm median handler time, rounded up to the millisecond, at the configured memory (routes ${MEMORY_MB.route} MB, ` +
    `fan-out ${MEMORY_MB.fanOut} MB, delivery ${MEMORY_MB.delivery} MB, arm64). Cold starts are left out: AWS reports INITs in under 1% of invocations.`,
  `One fan-out invocation per head change: a secret's insert, its last view and, for a chunked secret (over ${formatCount(INLINE_DATA_MAX_BYTES)} ` +
    `characters), the last reader signing off; busier traffic shares one among up to ${FAN_OUT_BATCH_SIZE} records. Each reads the key once. ` +
    `The deletion of a claimed secret: ${inputs.pipeline.deletionWriteUnits.secret1Kb} write units at 1 KB, ` +
    `${formatCount(inputs.pipeline.deletionWriteUnits.secret5MiB)} at 5 MiB, as measured; a chunked secret's backstop deletion adds ` +
    `${SQS_REQUESTS_PER_MESSAGE} SQS requests, a fan-out invocation and a write unit per item already gone.`,
  `Every key has a webhook: ${EVENTS_PER_SECRET} jobs per secret, each ${SQS_REQUESTS_PER_MESSAGE} SQS requests (up to ${DELIVERY_BATCH_SIZE} ` +
    `jobs a delivery batch when busier), a delivery of ${inputs.pipeline.deliveryMsPerJob} ms and a key read; no retries, no empty receives.`,
  `Storage: each secret waits its default ttl (${SECRET_DEFAULTS.ttl}), its data held as binary. Data transfer: response bodies, first tier.`,
];

export function estimateCosts(inputs: CostInputs): CostReport {
  return {
    scenarios: workloadsOf(inputs).map((workload) => estimateScenario(workload, inputs.pipeline)),
    assumptions: assumptionsOf(inputs),
    prices: Object.values(PRICES),
  };
}

/** The cost model's inputs from the run: the typical mix's requests, the 5 MiB ones and the pipeline's, as measured. */
export function costsOf(warm: readonly WarmRow[], large: LargePayloads): CostReport {
  const row = (name: string): Measured => {
    const found = warm.find((each) => each.name === name);
    if (!found) throw new Error(`cost estimate: no function ${name} measured`);
    return found;
  };
  const request = ({ usage, ...rest }: Measured): MeasuredRequest => ({ ...usage, ...rest });
  // A revocation deletes what the fan-out deletes after the last view; less its authentication, which a key read makes alone.
  const authenticationUnits = row('keys-get').usage.writeUnits;
  return estimateCosts({
    create1Kb: request(row('secrets-create')),
    claim1Kb: request(row('secrets-claim')),
    readKey: request(row('keys-get')),
    create5MiB: request(large.create),
    claim5MiB: request(large.claim),
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

const usd = (amount: number): string => {
  if (amount === 0) return '$0';
  if (amount >= 100) return `$${Math.round(amount).toLocaleString('en-US')}`;
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${amount.toLocaleString('en-US', { maximumSignificantDigits: 3 })}`;
};

const publishedRate = (rate: Rate): string =>
  rate.usd === 0 ? `free per ${rate.per}` : `$${rate.usd.toLocaleString('en-US', { maximumFractionDigits: 10 })} per ${rate.per} (${rate.tier})`;

const COST_LINES: readonly { label: string; cell: (scenario: ScenarioEstimate) => string }[] = [
  { label: 'API Gateway', cell: (scenario) => usd(scenario.costs.apiGateway) },
  { label: 'Lambda, request path', cell: (scenario) => usd(scenario.costs.lambda) },
  { label: 'DynamoDB, request path', cell: (scenario) => usd(scenario.costs.dynamoDb) },
  { label: 'Stream fan-out and deferred deletion', cell: (scenario) => usd(scenario.costs.streamFanOut) },
  { label: `Storage, each secret kept ${SECRET_DEFAULTS.ttl}`, cell: (scenario) => usd(scenario.costs.storage) },
  { label: 'Data transfer out', cell: (scenario) => usd(scenario.costs.dataTransferOut) },
  { label: '**Total, no webhooks**', cell: (scenario) => `**${usd(scenario.totalWithoutWebhooks)}**` },
  { label: 'Webhook jobs (SQS, delivery) if every key has a webhook', cell: (scenario) => usd(scenario.costs.webhookJobs) },
  { label: '**Total, every key has a webhook**', cell: (scenario) => `**${usd(scenario.totalWithWebhooks)}**` },
  { label: 'Per 1,000 secrets (create + claim), no webhooks', cell: (scenario) => usd(scenario.perSecretWithoutWebhooks * 1000) },
];

export function renderCosts(report: CostReport): string {
  const { scenarios } = report;
  return [
    '## Cost per million requests on AWS',
    '',
    ...scenarios.map((scenario) => `- ${scenario.title}: ${scenario.workload}.`),
    '',
    `| Dollars | ${scenarios.map((scenario) => scenario.title).join(' | ')} |`,
    `|---|${scenarios.map(() => '--:').join('|')}|`,
    ...COST_LINES.map(({ label, cell }) => `| ${label} | ${scenarios.map(cell).join(' | ')} |`),
    '',
    ...report.assumptions.map((assumption) => `- ${assumption}`),
    '',
    '| Service | Rate | Authority; figures read |',
    '|---|---|---|',
    ...report.prices.flatMap((service) =>
      Object.values(service.rates).map((rate) => `| ${service.service} | ${publishedRate(rate)} | ${service.authority}; ${service.checked} |`),
    ),
    '',
  ].join('\n');
}
