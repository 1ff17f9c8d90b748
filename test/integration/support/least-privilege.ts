import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ROUTES } from '../../../lambdas/definitions/routes';
import { TABLES } from '../../../lambdas/definitions/tables';
import { QUEUES } from '../../../lambdas/definitions/webhooks';
import type { FunctionName, RecordedCall } from '../../../local/sdk-calls';
import { roleOf } from '../../cdk/support/iam';
import type { Synthesized } from '../../cdk/support/synth';
import { at, asArray, isRecord, refTarget, resourcesOfType, roleStatements, routeFunctionId, tableLogicalId } from '../../cdk/support/template';
import { getAtt, pipelineOf, queueLogicalId } from '../../cdk/support/webhooks';

/**
 * Least privilege, proven by what the functions really send: the calls local mode recorded during
 * the integration run (local/sdk-calls.ts) against the roles of the synthesized stack. DynamoDB
 * Local and the local queue enforce no IAM, so this is where a missing grant shows before AWS
 * refuses it, and where a grant no code path needs shows at all.
 *
 * - every call a function sent is allowed by a statement of its role: same table or queue, same
 *   action, and its conditions hold for the call's attribute names and ReturnValues;
 * - every statement of its role on a table or queue was used by at least one call, except on the
 *   queue or stream its event source mapping reads, where Lambda itself uses the role's grants.
 */

/** Every call shape recorded, once however many processes sent it. */
export function readRecordedCalls(directory: string): RecordedCall[] {
  const lines = readdirSync(directory)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(directory, file), 'utf8').split('\n').filter(Boolean));
  return [...new Set(lines)].map((line) => JSON.parse(line) as RecordedCall);
}

interface Grant {
  resource: string;
  action: string;
  condition: Record<string, unknown> | undefined;
  used: boolean;
}

const describeCall = (call: RecordedCall): string =>
  `${call.action} on ${call.resource}` +
  (call.attributes ? ` naming [${call.attributes.join(', ')}] with ReturnValues ${call.returnValues ?? 'NONE'}` : '');

const describeGrant = (grant: Grant): string =>
  `${grant.action} on ${grant.resource}${grant.condition ? ` under ${JSON.stringify(grant.condition)}` : ''}`;

/** IAM's StringLike: `*` any run of characters, `?` any one. */
const likePattern = (pattern: string): RegExp =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

const CONDITION_OPERATORS: Readonly<Record<string, (call: RecordedCall, key: string, allowed: string[]) => boolean>> = {
  'ForAllValues:StringEquals': (call, key, allowed) => key === 'dynamodb:Attributes' && (call.attributes ?? []).every((name) => allowed.includes(name)),
  'ForAllValues:StringLike': (call, key, allowed) =>
    key === 'dynamodb:Attributes' && (call.attributes ?? []).every((name) => allowed.some((pattern) => likePattern(pattern).test(name))),
  // Stricter than IAM's IfExists: a call that asks for nothing is taken as asking for NONE.
  StringEqualsIfExists: (call, key, allowed) => key === 'dynamodb:ReturnValues' && allowed.includes(call.returnValues ?? 'NONE'),
};

/** Whether a statement's condition holds for the call; a condition this does not know holds for none. */
function conditionHolds(condition: Record<string, unknown> | undefined, call: RecordedCall): boolean {
  return Object.entries(condition ?? {}).every(([operator, tests]) => {
    const holds = CONDITION_OPERATORS[operator];
    return (
      holds !== undefined &&
      isRecord(tests) &&
      Object.entries(tests).every(([key, allowed]) => holds(call, key, asArray(allowed).map(String)))
    );
  });
}

export function leastPrivilegeFindings(calls: readonly RecordedCall[], { template }: Synthesized): string[] {
  const pipeline = pipelineOf(template);
  const functionIds: Record<FunctionName, string> = {
    ...(Object.fromEntries(ROUTES.map((route) => [route.name, routeFunctionId(template, route)])) as Record<FunctionName, string>),
    fanOut: pipeline.fanOutId,
    delivery: pipeline.deliveryId,
  };
  // The ARNs the roles name, as the template writes them, by table or queue id.
  const resourceOfArn = new Map<string, string>([
    ...TABLES.map((table): [string, string] => [JSON.stringify(getAtt(tableLogicalId(template, table), 'Arn')), table.id]),
    ...Object.values(QUEUES).map((queue): [string, string] => [JSON.stringify(getAtt(queueLogicalId(template, queue), 'Arn')), queue.id]),
  ]);
  const findings: string[] = [];

  for (const name of new Set(calls.map((call) => call.function))) {
    if (!(name in functionIds)) findings.push(`calls were recorded for ${name}, which is no function of the stack`);
  }

  for (const [name, functionId] of Object.entries(functionIds) as [FunctionName, string][]) {
    const grants: Grant[] = roleStatements(template, roleOf(template, functionId)).flatMap((statement) =>
      asArray(statement.Resource).flatMap((target) => {
        const resource = resourceOfArn.get(JSON.stringify(target));
        if (resource === undefined) return [];
        const condition = (statement as { Condition?: Record<string, unknown> }).Condition;
        return asArray(statement.Action).map((action) => ({ resource, action: String(action), condition, used: false }));
      }),
    );

    for (const call of calls.filter((recorded) => recorded.function === name)) {
      const allowing = grants.filter(
        (grant) => grant.resource === call.resource && grant.action === call.action && conditionHolds(grant.condition, call),
      );
      if (allowing.length === 0) findings.push(`${name} sent ${describeCall(call)}, which its role does not allow`);
      allowing.forEach((grant) => (grant.used = true));
    }

    const mappedSources = new Set(
      resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')
        .filter(([, mapping]) => refTarget(at(mapping.Properties, 'FunctionName')) === functionId)
        .flatMap(([, mapping]) => [at(mapping.Properties, 'EventSourceArn'), at(mapping.Properties, 'DestinationConfig', 'OnFailure', 'Destination')])
        .map((arn) => resourceOfArn.get(JSON.stringify(arn))),
    );
    for (const grant of grants.filter((candidate) => !candidate.used && !mappedSources.has(candidate.resource))) {
      findings.push(`${name}'s role grants ${describeGrant(grant)}, which no integration test made it send`);
    }
  }
  return findings;
}
