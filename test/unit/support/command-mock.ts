import { mockClient } from 'aws-sdk-client-mock';

/**
 * aws-sdk-client-mock for the functions' own AWS clients (lambdas/store/document-client.ts,
 * lambdas/queue/sqs.ts). They keep the SDK's shape, a `send(command)` taking command classes with
 * an `input`, which is all the library stubs and matches at run time; this gives its stubs types
 * for our command classes.
 */

interface CommandClass<TInput, TOutput> {
  new (input: TInput): { readonly input: TInput; readonly outputType: TOutput };
}
type Response<TOutput> = Partial<TOutput> | PromiseLike<Partial<TOutput>>;
/** Fakes receive the command's input; a fake's promise is the call's answer. */
type Fake<TInput> = (input: TInput) => unknown;

export interface CommandBehavior<TInput, TOutput> {
  resolves(response: Response<TOutput>): CommandMock;
  resolvesOnce(response: Response<TOutput>): CommandBehavior<TInput, TOutput>;
  rejects(error?: string | Error): CommandMock;
  rejectsOnce(error?: string | Error): CommandBehavior<TInput, TOutput>;
  callsFake(fake: Fake<TInput>): CommandMock;
  callsFakeOnce(fake: Fake<TInput>): CommandBehavior<TInput, TOutput>;
}

export interface CommandCall<TInput> {
  args: [{ input: TInput; constructor: { name: string } }];
}

export interface CommandMock {
  on<TInput, TOutput>(command: CommandClass<TInput, TOutput>, input?: Partial<TInput>, strict?: boolean): CommandBehavior<TInput, TOutput>;
  calls(): CommandCall<Record<string, unknown>>[];
  commandCalls<TInput, TOutput>(command: CommandClass<TInput, TOutput>, input?: Partial<TInput>): CommandCall<TInput>[];
  reset(): CommandMock;
  restore(): void;
}

/** Stubs `send` of every instance of `client`, including ones created lazily later. */
export const mockCommandClient = (client: abstract new () => { send(command: never): Promise<unknown> }): CommandMock =>
  mockClient(client as never) as unknown as CommandMock;
