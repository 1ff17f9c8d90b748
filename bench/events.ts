import { createHash, randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayProxyEvent, AttributeValue, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import type { RouteDefinition } from '#lambdas/definitions/routes';
import { SECRETS_TABLE } from '#lambdas/definitions/tables';
import { API_BASE_PATH, SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { epochSeconds } from '#lambdas/store/dynamo';
import type { HeadItem } from '#lambdas/store/secret-store';
import type { WebhookJob } from '#lambdas/webhooks/rules/webhook-job';
import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { proxyEvent } from '#local/proxy-event';
import { SECRET_DATA, type FreshKey } from './fixtures';

/** The events Lambda hands each kind of function, built as the stack's event sources shape them. */

export interface RouteRequest {
  headers?: Record<string, string>;
  body?: string;
  pathParameters?: Record<string, string>;
  sourceIp?: string;
}

const DEFAULT_SOURCE_IP = '198.18.0.1';

/** An API Gateway proxy event for `route`, with its {param} placeholders filled from pathParameters. */
export function routeEvent(route: RouteDefinition, request: RouteRequest): APIGatewayProxyEvent {
  const resource = `${API_BASE_PATH}${route.path}`;
  const path = resource.replace(/\{(\w+)\}/g, (_, name: string) => request.pathParameters?.[name] ?? '');
  return proxyEvent({
    method: route.method,
    resource,
    path,
    headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, [value]])),
    pathParameters: request.pathParameters ?? null,
    body: request.body ?? null,
    sourceIp: request.sourceIp ?? DEFAULT_SOURCE_IP,
    requestId: randomUUID(),
    stage: 'prod',
  });
}

const image = (item: object): Record<string, AttributeValue> => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;

let sequence = 0;

/** The stream record of a secret's creation: an INSERT of its head item. */
export function headInsertEvent(head: HeadItem): DynamoDBStreamEvent {
  sequence += 1;
  const { region } = LOCAL_AWS_SETTINGS;
  return {
    Records: [
      {
        eventID: randomUUID(),
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: region,
        eventSourceARN: `arn:aws:dynamodb:${region}:${LOCAL_ACCOUNT_ID}:table/${SECRETS_TABLE.id}/stream/bench`,
        dynamodb: {
          ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
          Keys: image({ [SECRETS_TABLE.partitionKey]: head.pk, [SECRETS_TABLE.sortKey]: head.sk }),
          NewImage: image(head),
          SequenceNumber: String(sequence).padStart(21, '0'),
          SizeBytes: JSON.stringify(head).length,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
    ],
  };
}

/** A first delivery attempt of one job from the jobs queue. */
export function jobMessageEvent(job: WebhookJob, queueArn: string): SQSEvent {
  const sent = Date.now();
  const body = JSON.stringify(job);
  return {
    Records: [
      {
        messageId: randomUUID(),
        receiptHandle: randomUUID(),
        body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(sent),
          SenderId: LOCAL_ACCOUNT_ID,
          ApproximateFirstReceiveTimestamp: String(sent),
        },
        messageAttributes: {},
        md5OfBody: createHash('md5').update(body).digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: queueArn,
        awsRegion: LOCAL_AWS_SETTINGS.region,
      },
    ],
  };
}

/**
 * The head item of a small text secret that was never written: what the stream record of its
 * creation carries. Written for real, it would be claimed by nothing and expire.
 */
export function unsavedSecretHead(owner: FreshKey): HeadItem {
  const now = Date.now();
  const expires = now + SECRET_TTLS[SECRET_DEFAULTS.ttl];
  return {
    pk: randomUrlSafeId(SECRET_ID_BYTES),
    sk: SECRET_HEAD_SK,
    owner: owner.keyHash,
    type: SECRET_DEFAULTS.type,
    views: SECRET_DEFAULTS.views,
    remaining: SECRET_DEFAULTS.views,
    created: now,
    expires,
    ttl: epochSeconds(expires),
    data: SECRET_DATA,
  };
}
