import type { SQSEvent, SQSRecord } from 'aws-lambda';

let counter = 0;

/** A message of the webhook jobs queue as the event source mapping hands it to the function. */
export function sqsRecord(body: string, receiveCount: number): SQSRecord {
  counter += 1;
  return {
    messageId: `message-${counter}`,
    receiptHandle: `receipt-${counter}-${Math.random().toString(36).slice(2)}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1750000000000',
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: '1750000000100',
    },
    messageAttributes: {},
    md5OfBody: 'd41d8cd98f00b204e9800998ecf8427e',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:unit-webhook-jobs',
    awsRegion: 'us-east-1',
  };
}

export const sqsEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
