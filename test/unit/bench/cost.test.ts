import {
  type CostInputs,
  type MeasuredRequest,
  type ScenarioEstimate,
  SCENARIO_TITLES,
  estimateCosts,
  lambdaGbSeconds,
  renderCosts,
} from '#bench/cost';
import { AWS_PRICES } from '#bench/prices';

const MiB = 1024 * 1024;
const GiB = 1024 ** 3;
const PER_MILLION = 1 / 1_000_000;

// Rates per unit, spelled out once so that each expectation below reads as hand arithmetic.
const REST_PER_REQUEST = 3.5 * PER_MILLION;
const LAMBDA_PER_REQUEST = 0.2 * PER_MILLION;
const LAMBDA_PER_GB_SECOND = 0.0000133334;
const WRITE_UNIT = 0.625 * PER_MILLION;
const READ_UNIT = 0.125 * PER_MILLION;
const SQS_REQUEST = 0.4 * PER_MILLION;
const TRANSFER_PER_GIB = 0.09;
const STORAGE_PER_GB_MONTH = 0.25;

const request = (fields: Partial<MeasuredRequest>): MeasuredRequest => ({
  readUnits: 0,
  writeUnits: 0,
  handlerMs: 10,
  requestBytes: 0,
  responseBytes: 0,
  ...fields,
});

/** Round figures: 10 ms handlers, 1,000-byte small bodies, a 5 MiB create at the body cap. */
const INPUTS: CostInputs = {
  create1Kb: request({ writeUnits: 2, requestBytes: 1000, responseBytes: 100 }),
  claim1Kb: request({ writeUnits: 2, responseBytes: 1000 }),
  readKey: request({ writeUnits: 1, responseBytes: 200 }),
  create5MiB: request({ writeUnits: 5200, handlerMs: 400, requestBytes: 5 * MiB, responseBytes: 100 }),
  claim5MiB: request({ readUnits: 1300, writeUnits: 2, handlerMs: 300, responseBytes: 5 * MiB + 100 }),
  pipeline: { deletionWriteUnits: { secret1Kb: 1, secret5MiB: 5130 }, fanOutMsPerBatch: 20, deliveryMsPerJob: 30 },
};

const report = estimateCosts(INPUTS);
const scenario = (title: string): ScenarioEstimate => {
  const found = report.scenarios.find((candidate) => candidate.title === title);
  if (!found) throw new Error(`no scenario ${title}`);
  return found;
};
const mix = scenario(SCENARIO_TITLES.typicalMix);
const large = scenario(SCENARIO_TITLES.largeSecrets);

/** The report keeps six significant digits. */
const expectUsd = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-5);
};

/** One invocation: its request charge plus memory (GB) × billed seconds. */
const invocation = (memoryGb: number, billedMs: number): number => LAMBDA_PER_REQUEST + memoryGb * (billedMs / 1000) * LAMBDA_PER_GB_SECOND;

describe('the published prices the arithmetic uses', () => {
  test('are the us-east-1 first-tier rates, after DynamoDB’s November 2024 cut', () => {
    expect(AWS_PRICES.restApi.rates.requests.usd * PER_MILLION).toBe(REST_PER_REQUEST);
    expect(AWS_PRICES.lambdaArm64.rates.duration.usd).toBe(LAMBDA_PER_GB_SECOND);
    expect(AWS_PRICES.dynamoDbOnDemand.rates.writeRequestUnits.usd).toBe(0.625);
    expect(AWS_PRICES.dynamoDbOnDemand.rates.readRequestUnits.usd).toBe(0.125);
    expect(AWS_PRICES.dynamoDbStreams.rates.lambdaReads.usd).toBe(0);
  });

  test('each names an AWS page as its authority and says where and when its figures were read', () => {
    for (const service of Object.values(AWS_PRICES)) {
      expect(service.authority).toMatch(/^https:\/\/aws\.amazon\.com\//);
      expect(service.checked).toMatch(/2026-11-21|as published on https:\/\//);
    }
  });
});

describe('Lambda GB-seconds', () => {
  test('512 MB for 8 ms is half a GB for 8 thousandths of a second', () => {
    expect(lambdaGbSeconds(512, 8)).toBeCloseTo(0.004, 12);
  });

  test('duration is billed in whole milliseconds, rounded up', () => {
    expect(lambdaGbSeconds(512, 7.2)).toBe(lambdaGbSeconds(512, 8));
    expect(lambdaGbSeconds(128, 100)).toBeCloseTo(0.0125, 12);
  });
});

describe('the typical mix: 450,000 secrets created and claimed, 100,000 key reads', () => {
  const ours = mix;
  const secrets = 450_000;

  test('states its requests', () => {
    expect(mix.workload).toBe('450,000 creates of a 1 KB secret (1 view), as many claims taking that view, 100,000 GET /keys');
  });

  test('API Gateway: a million REST requests', () => {
    expectUsd(ours.costs.apiGateway, 1_000_000 * REST_PER_REQUEST);
  });

  test('Lambda: a million 10 ms invocations at 512 MB', () => {
    expectUsd(ours.costs.lambda, 1_000_000 * invocation(0.5, 10));
  });

  test('DynamoDB: the measured units of each request', () => {
    expectUsd(ours.costs.dynamoDb, (secrets * 2 + secrets * 2 + 100_000 * 1) * WRITE_UNIT);
  });

  test('stream fan-out: two invocations, two key reads and the deletion per secret', () => {
    expectUsd(ours.costs.streamFanOut, secrets * (2 * invocation(0.5, 20) + 2 * READ_UNIT + 1 * WRITE_UNIT));
  });

  test('webhook jobs: two per secret, each three SQS requests, a 256 MB delivery and a key read', () => {
    expectUsd(ours.costs.webhookJobs, secrets * 2 * (3 * SQS_REQUEST + invocation(0.25, 30) + READ_UNIT));
    expectUsd(ours.totalWithWebhooks, ours.totalWithoutWebhooks + ours.costs.webhookJobs);
  });

  test('data transfer: response bodies only', () => {
    expectUsd(ours.costs.dataTransferOut, ((secrets * 100 + secrets * 1000 + 100_000 * 200) / GiB) * TRANSFER_PER_GIB);
  });

  test('storage: each secret kept one day of a 730-hour month, its base64 held as binary (3/4 of it)', () => {
    expectUsd(ours.costs.storage, ((secrets * 750) / GiB) * (24 / 730) * STORAGE_PER_GB_MONTH);
  });

  test('the total without webhooks is the sum of its lines', () => {
    const { apiGateway, lambda, dynamoDb, streamFanOut, storage, dataTransferOut } = ours.costs;
    expectUsd(ours.totalWithoutWebhooks, apiGateway + lambda + dynamoDb + streamFanOut + storage + dataTransferOut);
  });

  test('per secret: its whole lifecycle, request path, fan-out, storage and transfer', () => {
    const requestPath = 2 * REST_PER_REQUEST + 2 * invocation(0.5, 10) + 4 * WRITE_UNIT;
    const fanOut = 2 * invocation(0.5, 20) + 2 * READ_UNIT + WRITE_UNIT;
    const storage = (750 / GiB) * (24 / 730) * STORAGE_PER_GB_MONTH;
    const transfer = ((100 + 1000) / GiB) * TRANSFER_PER_GIB;
    expectUsd(ours.perSecretWithoutWebhooks, requestPath + fanOut + storage + transfer);
  });
});

describe('5 MiB secrets: 500,000 created and claimed', () => {
  const secrets = 500_000;

  test('a chunked secret changes its head three times, its deletion costs what was measured, and its backstop deletion finds 16 items gone', () => {
    // 5 MiB of data in 350,000-character chunks: 15 chunks and the head.
    const backstop = 3 * SQS_REQUEST + invocation(0.5, 20) + 16 * WRITE_UNIT;
    expectUsd(large.costs.streamFanOut, secrets * (3 * invocation(0.5, 20) + 2 * READ_UNIT + 5130 * WRITE_UNIT + backstop));
  });

  test('data transfer: the 5 MiB responses', () => {
    expectUsd(large.costs.dataTransferOut, ((secrets * 100 + secrets * (5 * MiB + 100)) / GiB) * TRANSFER_PER_GIB);
  });
});

describe('the report', () => {
  test('survives JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test('renders both scenarios side by side, the assumptions and every price with its source', () => {
    const markdown = renderCosts(report);
    expect(markdown).toMatch(/\| Dollars \| Typical mix \| 5 MiB secrets \|/);
    expect(markdown).toContain(`| **Total, no webhooks** | **$${mix.totalWithoutWebhooks.toFixed(2)}** |`);
    for (const service of Object.values(AWS_PRICES)) expect(markdown).toContain(service.authority);
  });
});
