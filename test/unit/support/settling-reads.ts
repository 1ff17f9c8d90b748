import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { throttled, type DocumentClientMock } from './dynamo';

// The store settles a write whose outcome it cannot know with a consistent read: what its tests stage.

/** A write whose answer went missing on its way back (the SDK's socket timeout): DynamoDB may or may not have applied it. */
export const lostAnswer = (): Error => Object.assign(new Error('socket hang up'), { name: 'TimeoutError', $metadata: {} });

/** Every update throttled, and every settling read finding `item`, which does not show the update: the store's bounded retry. */
export function throttleUpdatesUnsettled(mock: DocumentClientMock, item: object): void {
  mock.on(UpdateCommand).rejects(throttled()).on(GetCommand).resolves({ Item: item });
}

/** What the store sends for an update that stays throttled (throttleUpdatesUnsettled): three attempts, each with its settling read. */
export const UNSETTLED_UPDATE_CALLS = ['UpdateCommand', 'GetCommand', 'UpdateCommand', 'GetCommand', 'UpdateCommand', 'GetCommand'];
