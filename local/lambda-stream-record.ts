import type { _Record as StreamRecord, AttributeValue as StreamAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';

/** The record as a Lambda event carries it: JSON attribute values, epoch-seconds timestamp. */
export function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
    dynamodb: {
      ...(change?.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(change.ApproximateCreationDateTime.getTime() / 1000) }
        : {}),
      ...(change?.Keys ? { Keys: jsonImage(change.Keys) } : {}),
      ...(change?.NewImage ? { NewImage: jsonImage(change.NewImage) } : {}),
      ...(change?.OldImage ? { OldImage: jsonImage(change.OldImage) } : {}),
      ...(change?.SequenceNumber ? { SequenceNumber: change.SequenceNumber } : {}),
      ...(change?.SizeBytes !== undefined ? { SizeBytes: change.SizeBytes } : {}),
      ...(change?.StreamViewType ? { StreamViewType: change.StreamViewType } : {}),
    },
  };
}

const jsonImage = (image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, jsonValue(value)]));

/** The SDK hands binary values over as bytes; Lambda's JSON event carries them as base64. */
function jsonValue(value: StreamAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.M !== undefined) return { M: jsonImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(jsonValue) };
  return value as AttributeValue;
}
