import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ROUTES } from '#lambdas/definitions/routes';
import { TABLES } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import type { FunctionName, RecordedCall } from '#local/sdk-calls';
import { roleOf } from '#test/cdk/support/iam';
import type { Synthesized } from '#test/cdk/support/synth';
import {
  at,
  asArray,
  getAttTarget,
  isRecord,
  refTarget,
  resourcesOfType,
  roleStatements,
  routeFunctionId,
  tableLogicalId,
} from '#test/cdk/support/template';
import { pipelineOf, queueLogicalId } from '#test/cdk/support/webhooks';
import { SIMULATED_ACCOUNT_ID, simulatedFindings, type FunctionRole, type PolicyStatement, type SimulatedCall } from './iam-simulation';

/**
 * Least privilege, proven by what the functions really send: the calls local mode recorded during
 * the integration run (local/sdk-calls.ts) against the roles of the synthesized stack, evaluated
 * by an IAM policy engine (iam-simulation.ts). DynamoDB Local and the local queue enforce no IAM,
 * so this is where a missing grant shows before AWS refuses it, and where a grant no code path
 * needs shows at all. The template's ARNs are resolved to those the stack would have in one
 * account and region; the calls name their tables and queues by the same ids.
 *
 * One thing no simulator settles: whether AWS counts the attributes a ReturnValues of ALL_NEW
 * returns in dynamodb:Attributes. The calls carry the attributes they name, as IAM's documentation
 * reads most plainly; `npm run smoke` after a deploy catches the other reading (docs/deploy.md).
 */

/** Every call shape recorded, once however many processes sent it. */
export function readRecordedCalls(directory: string): RecordedCall[] {
  const lines = readdirSync(directory)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(directory, file), 'utf8').split('\n').filter(Boolean));
  return [...new Set(lines)].map((line) => JSON.parse(line) as RecordedCall);
}

const REGION = 'us-east-1';

/** The ARN a table or queue of the stack would have, by its TABLES or QUEUES id. */
const tableArn = (id: string): string => `arn:aws:dynamodb:${REGION}:${SIMULATED_ACCOUNT_ID}:table/${id}`;
const queueArn = (id: string): string => `arn:aws:sqs:${REGION}:${SIMULATED_ACCOUNT_ID}:${id}`;
const STREAM_LABEL = '2026-01-01T00:00:00.000';

const PSEUDO_PARAMETERS: Readonly<Record<string, string>> = {
  'AWS::Region': REGION,
  'AWS::AccountId': SIMULATED_ACCOUNT_ID,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
};

const describeCall = (call: RecordedCall): string =>
  `${call.action} on ${call.resource}` +
  (call.attributes ? ` naming [${call.attributes.join(', ')}] with ReturnValues ${call.returnValues ?? 'NONE'}` : '');

export async function leastPrivilegeFindings(calls: readonly RecordedCall[], { template }: Synthesized): Promise<string[]> {
  const pipeline = pipelineOf(template);
  const functionIds: Record<FunctionName, string> = {
    ...(Object.fromEntries(ROUTES.map((route) => [route.name, routeFunctionId(template, route)])) as Record<FunctionName, string>),
    fanOut: pipeline.fanOutId,
    delivery: pipeline.deliveryId,
  };
  // What each logical id's attributes are as ARNs, for the tables and queues the calls name by id.
  const arnOf = new Map<string, string>();
  const attributeArns = new Map<string, string>();
  for (const table of TABLES) {
    const logicalId = tableLogicalId(template, table);
    arnOf.set(table.id, tableArn(table.id));
    attributeArns.set(`${logicalId}.Arn`, tableArn(table.id));
    attributeArns.set(`${logicalId}.StreamArn`, `${tableArn(table.id)}/stream/${STREAM_LABEL}`);
  }
  for (const queue of Object.values(QUEUES)) {
    const logicalId = queueLogicalId(template, queue);
    arnOf.set(queue.id, queueArn(queue.id));
    attributeArns.set(`${logicalId}.Arn`, queueArn(queue.id));
  }
  /** A template value as a string, or undefined if it names something outside the tables and queues. */
  const resolve = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    const getAtt = getAttTarget(value);
    if (getAtt) return attributeArns.get(`${getAtt[0]}.${getAtt[1]}`);
    const ref = refTarget(value);
    if (ref) return PSEUDO_PARAMETERS[ref];
    const join = isRecord(value) ? value['Fn::Join'] : undefined;
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
      const parts = join[1].map(resolve);
      return parts.every((part) => part !== undefined) ? parts.join(join[0]) : undefined;
    }
    return undefined;
  };
  const checkedResources = new Set(arnOf.values());

  const roles: FunctionRole[] = (Object.entries(functionIds) as [FunctionName, string][]).map(([name, functionId]) => {
    const statements: PolicyStatement[] = roleStatements(template, roleOf(template, functionId)).map((statement) => {
      const raw = statement as unknown as { Effect: 'Allow' | 'Deny'; Action: unknown; Resource: unknown; Condition?: PolicyStatement['Condition'] };
      // What cannot be resolved (log groups, tracing) stays out of reach: no call to it is recorded.
      const resources = asArray(raw.Resource).map((resource) => resolve(resource) ?? 'arn:aws:unresolved:::outside-the-tables-and-queues');
      return {
        Effect: raw.Effect,
        Action: asArray(raw.Action).map(String),
        Resource: resources,
        ...(raw.Condition ? { Condition: raw.Condition } : {}),
      };
    });
    const usedByLambda = new Set(
      resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')
        .filter(([, mapping]) => refTarget(at(mapping.Properties, 'FunctionName')) === functionId)
        .flatMap(([, mapping]) => [at(mapping.Properties, 'EventSourceArn'), at(mapping.Properties, 'DestinationConfig', 'OnFailure', 'Destination')])
        .flatMap((arn) => resolve(arn) ?? []),
    );
    return { name, statements, usedByLambda, checkedResources };
  });

  const simulated: SimulatedCall[] = calls.map((call) => ({
    function: call.function,
    action: call.action,
    resourceArn: arnOf.get(call.resource) ?? call.resource,
    context: {
      ...(call.attributes ? { 'dynamodb:Attributes': call.attributes } : {}),
      ...(call.returnValues ? { 'dynamodb:ReturnValues': call.returnValues } : {}),
      ...(call.select ? { 'dynamodb:Select': call.select } : {}),
    },
    description: describeCall(call),
  }));
  return simulatedFindings(roles, simulated);
}
