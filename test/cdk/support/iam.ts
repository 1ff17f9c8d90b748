import type { Template } from 'aws-cdk-lib/assertions';
import { asArray, at, getAttTarget, resource, roleStatements } from './template';

/** The role a function runs with. */
export function roleOf(template: Template, functionId: string): string {
  const role = getAttTarget(at(resource(template, functionId).Properties, 'Role'));
  if (!role) throw new Error(`function ${functionId} has no role of this stack`);
  return role[0];
}

/** Actions a role is granted per resource (keyed by the resource's JSON), whatever the statements' grouping. */
export function actionsByResource(template: Template, roleId: string): Map<string, Set<string>> {
  const granted = new Map<string, Set<string>>();
  for (const statement of roleStatements(template, roleId)) {
    expect(statement.Effect).toBe('Allow');
    for (const target of asArray(statement.Resource)) {
      const key = JSON.stringify(target);
      const actions = granted.get(key) ?? new Set<string>();
      asArray(statement.Action).forEach((action) => actions.add(String(action)));
      granted.set(key, actions);
    }
  }
  return granted;
}
