import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';

/**
 * Least privilege in both directions, decided by a maintained IAM policy engine
 * (@cloud-copilot/iam-simulate: IAM's evaluation logic, every condition operator, and AWS's own
 * list of actions, resource types and condition keys) rather than by code of ours:
 *
 * - every recorded call is allowed by its function's role, evaluated whole (a Deny would win);
 * - every grant (one action on one resource under one statement's condition) allows at least one
 *   recorded call, except on the resources Lambda itself reads for the function (its event
 *   source mapping's queue or stream, and where it sends failures).
 *
 * Test tooling only: the package is AGPL-3.0 and never reaches the functions or the stack
 * (docs/decisions/iam-policy-simulator.md).
 */

/** A statement of a role, with its resources already resolved to ARNs. */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface FunctionRole {
  name: string;
  statements: PolicyStatement[];
  /** Resources whose grants Lambda uses for the function, not its code: never reported as unused. */
  usedByLambda: ReadonlySet<string>;
  /** Only grants on these resources are checked for use (the tables and queues, not logs or tracing). */
  checkedResources: ReadonlySet<string>;
}

export interface SimulatedCall {
  function: string;
  action: string;
  resourceArn: string;
  /** IAM's request context for the call: dynamodb:Attributes, dynamodb:ReturnValues. */
  context: Record<string, string | string[]>;
  /** How a finding names the call. */
  description: string;
}

const ACCOUNT_ID = '111122223333';
export const SIMULATED_ACCOUNT_ID = ACCOUNT_ID;

const asList = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

interface Grant {
  statement: PolicyStatement;
  description: string;
  used: boolean;
}

/** Each statement cut into one action on one resource, so that a use is counted as narrowly as it is granted. */
function grantsOf(role: FunctionRole): Grant[] {
  return role.statements
    .filter((statement) => statement.Effect === 'Allow')
    .flatMap((statement) =>
      asList(statement.Resource)
        .filter((resource) => role.checkedResources.has(resource))
        .flatMap((resource) =>
          asList(statement.Action).map((action) => ({
            statement: { ...statement, Action: action, Resource: resource },
            description: `${action} on ${resource}${statement.Condition ? ` under ${JSON.stringify(statement.Condition)}` : ''}`,
            used: false,
          })),
        ),
    );
}

async function decide(call: SimulatedCall, name: string, statements: PolicyStatement[]): Promise<{ allowed: boolean; errors?: string }> {
  const simulation: Simulation = {
    identityPolicies: [{ name, policy: { Version: '2012-10-17', Statement: statements } }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    request: {
      principal: `arn:aws:iam::${ACCOUNT_ID}:role/${name}`,
      action: call.action,
      resource: { accountId: ACCOUNT_ID, resource: call.resourceArn },
      contextVariables: call.context,
    },
  };
  const response = await runSimulation(simulation, {});
  if (response.resultType === 'error') return { allowed: false, errors: JSON.stringify(response.errors) };
  return { allowed: response.overallResult === 'Allowed' };
}

export async function simulatedFindings(roles: readonly FunctionRole[], calls: readonly SimulatedCall[]): Promise<string[]> {
  const findings: string[] = [];
  const byName = new Map(roles.map((role) => [role.name, role]));
  for (const name of new Set(calls.map((call) => call.function))) {
    if (!byName.has(name)) findings.push(`calls were recorded for ${name}, which is no function of the stack`);
  }
  for (const role of roles) {
    const grants = grantsOf(role);
    for (const call of calls.filter((recorded) => recorded.function === role.name)) {
      const whole = await decide(call, role.name, role.statements);
      if (whole.errors) findings.push(`${role.name}: the simulator refused ${call.description}: ${whole.errors}`);
      else if (!whole.allowed) findings.push(`${role.name} sent ${call.description}, which its role does not allow`);
      for (const grant of grants.filter((candidate) => !candidate.used)) {
        if ((await decide(call, role.name, [grant.statement])).allowed) grant.used = true;
      }
    }
    for (const grant of grants) {
      const resource = String(grant.statement.Resource);
      if (!grant.used && !role.usedByLambda.has(resource)) {
        findings.push(`${role.name}'s role grants ${grant.description}, which no integration test made it send`);
      }
    }
  }
  return findings;
}
