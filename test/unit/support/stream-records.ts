import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { SECRET_HEAD_SK, secretChunkKey } from '#lambdas/definitions/tables';
import type { StreamUserIdentity } from '#lambdas/webhooks/stream/records';

/** Stream records of the secrets table as Lambda delivers them (NEW_AND_OLD_IMAGES). */

type Image = Record<string, unknown>;

let sequence = 100;

const image = (item: Image): Record<string, AttributeValue> => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;

export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  images: { old?: Image; new?: Image },
  userIdentity?: StreamUserIdentity,
): DynamoDBRecord {
  const keySource = images.new ?? images.old ?? {};
  sequence += 1;
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/unit-secrets/stream/2026-01-01T00:00:00.000',
    ...(userIdentity ? { userIdentity } : {}),
    dynamodb: {
      ApproximateCreationDateTime: 1_750_000_000,
      Keys: image({ pk: keySource.pk, sk: keySource.sk }),
      ...(images.new ? { NewImage: image(images.new) } : {}),
      ...(images.old ? { OldImage: image(images.old) } : {}),
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

export const SECRET_ID = 'AbCdEfGhIjKlMnOpQrStUv';
export const CREATED = 1_750_000_000_000;

/** A head item as the secret store writes it. */
export const head = (overrides: Image = {}): Image => ({
  pk: SECRET_ID,
  sk: SECRET_HEAD_SK,
  owner: 'owner-hash',
  type: 'text',
  views: 3,
  remaining: 3,
  created: CREATED,
  expires: CREATED + 3_600_000,
  ttl: Math.ceil((CREATED + 3_600_000) / 1000),
  data: 'c2VjcmV0',
  ...overrides,
});

export const chunk = (index: number): Image => ({ ...secretChunkKey(SECRET_ID, index), data: 'QUFB', ttl: 1 });
