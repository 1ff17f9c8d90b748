const SQS_PREFIX = 'AWS.SimpleQueueService.';

/**
 * The SQS errors the local queue answers with: the `__type` code, and the query-protocol code of
 * `x-amzn-query-error`, which the SDK prefers. InvalidParameterValue is not in the SDK's model, but SQS sends it.
 */
const QUERY_CODES = {
  QueueDoesNotExist: `${SQS_PREFIX}NonExistentQueue`,
  ReceiptHandleIsInvalid: 'ReceiptHandleIsInvalid',
  MessageNotInflight: `${SQS_PREFIX}MessageNotInflight`,
  EmptyBatchRequest: `${SQS_PREFIX}EmptyBatchRequest`,
  TooManyEntriesInBatchRequest: `${SQS_PREFIX}TooManyEntriesInBatchRequest`,
  BatchEntryIdsNotDistinct: `${SQS_PREFIX}BatchEntryIdsNotDistinct`,
  InvalidBatchEntryId: `${SQS_PREFIX}InvalidBatchEntryId`,
  BatchRequestTooLong: `${SQS_PREFIX}BatchRequestTooLong`,
  InvalidAttributeName: 'InvalidAttributeName',
  InvalidMessageContents: 'InvalidMessageContents',
  UnsupportedOperation: `${SQS_PREFIX}UnsupportedOperation`,
  InvalidParameterValue: 'InvalidParameterValue',
} as const;

export class QueueError extends Error {
  readonly queryCode: string;
  /** As in the SQS service model: 400 for all but ReceiptHandleIsInvalid. */
  readonly status: number;

  constructor(
    readonly code: keyof typeof QUERY_CODES,
    message: string,
  ) {
    super(message);
    this.name = code;
    this.queryCode = QUERY_CODES[code];
    this.status = code === 'ReceiptHandleIsInvalid' ? 404 : 400;
  }
}
