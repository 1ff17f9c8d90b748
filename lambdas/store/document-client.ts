import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { AwsJsonClient, type AwsJsonService, type JsonObject, type OperationInterceptor, type WithoutMetadata } from '../aws/aws-json-client';
import { ENV } from '../definitions/env';

/**
 * DynamoDB with native JavaScript values, as @aws-sdk/lib-dynamodb's document client offers it and
 * with its command names and input and output types, over our small signed client: the same
 * marshalling (@aws-sdk/util-dynamodb, undefined values removed), none of the SDK's first-call cost.
 * Only the operations the store makes are here.
 */

const MARSHALL_OPTIONS = { removeUndefinedValues: true } as const;

type Native = Record<string, NativeAttributeValue>;
type Wire = JsonObject;

/**
 * A binary attribute given as the standard base64 of its bytes, which is how DynamoDB's JSON
 * carries binary: it goes over the wire as it is, never decoded here. Reads hand binary values
 * back the same way, as that base64 text. Only canonical base64 (isCanonicalBase64) comes back
 * unchanged: DynamoDB stores the bytes.
 */
export class BinaryAsBase64 {
  constructor(readonly base64: string) {}
}

/** Top-level BinaryAsBase64 attributes become binary values; the rest is marshalled as usual. */
function toWire(item: Native): Wire {
  const entries = Object.entries(item);
  const binary = entries.filter((entry): entry is [string, BinaryAsBase64] => entry[1] instanceof BinaryAsBase64);
  if (binary.length === 0) return marshall(item, MARSHALL_OPTIONS) as Wire;
  const others = Object.fromEntries(entries.filter(([, value]) => !(value instanceof BinaryAsBase64)));
  return { ...(marshall(others, MARSHALL_OPTIONS) as Wire), ...Object.fromEntries(binary.map(([name, value]) => [name, { B: value.base64 }])) };
}
const toNative = (item: Wire): Native => unmarshall(item as Parameters<typeof unmarshall>[0]);
const optional = <T, R>(value: T | undefined, convert: (value: T) => R): R | undefined =>
  value === undefined ? undefined : convert(value);
/** Applies `convert` to each value of a record keyed by table name. */
const perTable = <T, R>(tables: Record<string, T>, convert: (value: T) => R): Record<string, R> =>
  Object.fromEntries(Object.entries(tables).map(([table, value]) => [table, convert(value)]));

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
type WireWriteRequest = { PutRequest?: { Item: Wire }; DeleteRequest?: { Key: Wire } };
type KeysAndAttributes = NonNullable<BatchGetCommandInput['RequestItems']>[string];
type WireKeysAndAttributes = Omit<KeysAndAttributes, 'Keys'> & { Keys?: Wire[] };

const writeRequestToWire = (request: WriteRequest): WireWriteRequest => ({
  ...(request.PutRequest?.Item ? { PutRequest: { Item: toWire(request.PutRequest.Item) } } : {}),
  ...(request.DeleteRequest?.Key ? { DeleteRequest: { Key: toWire(request.DeleteRequest.Key) } } : {}),
});
const writeRequestToNative = (request: WireWriteRequest): WriteRequest => ({
  ...(request.PutRequest ? { PutRequest: { Item: toNative(request.PutRequest.Item) } } : {}),
  ...(request.DeleteRequest ? { DeleteRequest: { Key: toNative(request.DeleteRequest.Key) } } : {}),
});
const keysToWire = (request: KeysAndAttributes): WireKeysAndAttributes => ({ ...request, Keys: request.Keys?.map(toWire) });
const keysToNative = (request: WireKeysAndAttributes): KeysAndAttributes => ({ ...request, Keys: request.Keys?.map(toNative) });

/** A command: the DynamoDB operation it names, and how its input and output cross the wire. */
abstract class DocumentCommand<TInput, TOutput> {
  declare readonly outputType: TOutput;
  abstract readonly operation: string;
  constructor(readonly input: TInput) {}
  abstract wireInput(): Wire;
  abstract nativeOutput(output: Wire): TOutput;
}

export class GetCommand extends DocumentCommand<GetCommandInput, WithoutMetadata<GetCommandOutput>> {
  readonly operation = 'GetItem';
  wireInput(): Wire {
    return { ...this.input, Key: optional(this.input.Key, toWire) };
  }
  nativeOutput({ Item, ...rest }: Wire): WithoutMetadata<GetCommandOutput> {
    return { ...rest, Item: optional(Item as Wire | undefined, toNative) };
  }
}

/** Put, Update and Delete: their Item or Key and ExpressionAttributeValues are native; Attributes come back. */
type NativeWriteInput = { ExpressionAttributeValues?: Native; Item?: Native; Key?: Native };

abstract class WriteCommand<TInput extends NativeWriteInput, TOutput> extends DocumentCommand<TInput, TOutput> {
  wireInput(): Wire {
    const { ExpressionAttributeValues, Item, Key } = this.input;
    return {
      ...this.input,
      ExpressionAttributeValues: optional(ExpressionAttributeValues, toWire),
      Item: optional(Item, toWire),
      Key: optional(Key, toWire),
    };
  }
  nativeOutput({ Attributes, ...rest }: Wire): TOutput {
    return { ...rest, Attributes: optional(Attributes as Wire | undefined, toNative) } as TOutput;
  }
}

export class PutCommand extends WriteCommand<PutCommandInput, WithoutMetadata<PutCommandOutput>> {
  readonly operation = 'PutItem';
}

export class UpdateCommand extends WriteCommand<UpdateCommandInput, WithoutMetadata<UpdateCommandOutput>> {
  readonly operation = 'UpdateItem';
}

export class DeleteCommand extends WriteCommand<DeleteCommandInput, WithoutMetadata<DeleteCommandOutput>> {
  readonly operation = 'DeleteItem';
}

export class BatchGetCommand extends DocumentCommand<BatchGetCommandInput, WithoutMetadata<BatchGetCommandOutput>> {
  readonly operation = 'BatchGetItem';
  wireInput(): Wire {
    return { ...this.input, RequestItems: optional(this.input.RequestItems, (tables) => perTable(tables, keysToWire)) };
  }
  nativeOutput({ Responses, UnprocessedKeys, ...rest }: Wire): WithoutMetadata<BatchGetCommandOutput> {
    return {
      ...rest,
      Responses: optional(Responses as Record<string, Wire[]> | undefined, (tables) => perTable(tables, (items) => items.map(toNative))),
      UnprocessedKeys: optional(UnprocessedKeys as Record<string, WireKeysAndAttributes> | undefined, (tables) =>
        perTable(tables, keysToNative),
      ),
    };
  }
}

export class BatchWriteCommand extends DocumentCommand<BatchWriteCommandInput, WithoutMetadata<BatchWriteCommandOutput>> {
  readonly operation = 'BatchWriteItem';
  wireInput(): Wire {
    return {
      ...this.input,
      RequestItems: optional(this.input.RequestItems, (tables) => perTable(tables, (requests) => requests.map(writeRequestToWire))),
    };
  }
  nativeOutput({ UnprocessedItems, ...rest }: Wire): WithoutMetadata<BatchWriteCommandOutput> {
    return {
      ...rest,
      UnprocessedItems: optional(UnprocessedItems as Record<string, WireWriteRequest[]> | undefined, (tables) =>
        perTable(tables, (requests) => requests.map(writeRequestToNative)),
      ),
    };
  }
}

const DYNAMODB_SERVICE: AwsJsonService = {
  name: 'dynamodb',
  targetPrefix: 'DynamoDB_20120810',
  endpointVariable: ENV.dynamodbEndpoint,
  retry: { maxAttempts: 4, baseDelayMs: 25 },
};

export class DocumentClient {
  private readonly client = new AwsJsonClient(DYNAMODB_SERVICE);

  async send<TOutput>(command: DocumentCommand<unknown, TOutput>): Promise<TOutput> {
    return command.nativeOutput(await this.client.send(command.operation, command.wireInput()));
  }

  /** See OperationInterceptor: operations and their inputs and outputs in DynamoDB's wire format. */
  intercept(interceptor: OperationInterceptor | undefined): void {
    this.client.intercept(interceptor);
  }

  destroy(): void {
    this.client.destroy();
  }
}
