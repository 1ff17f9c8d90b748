/**
 * The SQS errors the local queue service can answer with. Each carries the code SQS's JSON
 * protocol puts in `__type`, the legacy query-protocol code it sends in `x-amzn-query-error`
 * (the SDK's SQS client is "awsQueryCompatible" and prefers that header), and the HTTP status
 * from the SQS service model.
 */
const ERROR_SHAPES = {
  QueueDoesNotExist: { queryCode: 'AWS.SimpleQueueService.NonExistentQueue', status: 400 },
  ReceiptHandleIsInvalid: { queryCode: 'ReceiptHandleIsInvalid', status: 404 },
  MessageNotInflight: { queryCode: 'AWS.SimpleQueueService.MessageNotInflight', status: 400 },
  EmptyBatchRequest: { queryCode: 'AWS.SimpleQueueService.EmptyBatchRequest', status: 400 },
  TooManyEntriesInBatchRequest: { queryCode: 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest', status: 400 },
  BatchEntryIdsNotDistinct: { queryCode: 'AWS.SimpleQueueService.BatchEntryIdsNotDistinct', status: 400 },
  InvalidBatchEntryId: { queryCode: 'AWS.SimpleQueueService.InvalidBatchEntryId', status: 400 },
  BatchRequestTooLong: { queryCode: 'AWS.SimpleQueueService.BatchRequestTooLong', status: 400 },
  InvalidAttributeName: { queryCode: 'InvalidAttributeName', status: 400 },
  InvalidMessageContents: { queryCode: 'InvalidMessageContents', status: 400 },
  UnsupportedOperation: { queryCode: 'AWS.SimpleQueueService.UnsupportedOperation', status: 400 },
  // Not in the SDK's model (it surfaces them as SQSServiceException with this name), but SQS sends them.
  InvalidParameterValue: { queryCode: 'InvalidParameterValue', status: 400 },
  MissingParameter: { queryCode: 'MissingParameter', status: 400 },
} as const;

export type QueueErrorCode = keyof typeof ERROR_SHAPES;

export class QueueError extends Error {
  readonly queryCode: string;
  readonly status: number;

  constructor(
    readonly code: QueueErrorCode,
    message: string,
  ) {
    super(message);
    this.name = code;
    this.queryCode = ERROR_SHAPES[code].queryCode;
    this.status = ERROR_SHAPES[code].status;
  }
}
