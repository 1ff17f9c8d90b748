import type { Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from './aws-account';

/** A Lambda context whose remaining time runs down from `timeoutMs`, as middy's timeout guard reads it. */
export function lambdaContext(functionName: string, requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
