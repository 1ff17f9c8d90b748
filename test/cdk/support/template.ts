import type { Template } from 'aws-cdk-lib/assertions';
import { API_BASE_PATH } from '#contract/limits';
import type { RouteDefinition } from '#lambdas/definitions/routes';
import type { TableDefinition } from '#lambdas/definitions/tables';

/** Just enough of the CloudFormation template's shape for these tests to read it without `any`. */
export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DependsOn?: string | string[];
  readonly Metadata?: Record<string, unknown>;
}

export interface CfnTemplate {
  readonly Resources: Record<string, CfnResource>;
  readonly Outputs?: Record<string, { readonly Value: unknown }>;
}

export const templateJson = (template: Template): CfnTemplate => template.toJSON() as CfnTemplate;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function resourcesOfType(template: Template, type: string): [string, CfnResource][] {
  return Object.entries(templateJson(template).Resources).filter(([, resource]) => resource.Type === type);
}

export function resource(template: Template, logicalId: string): CfnResource {
  const found = templateJson(template).Resources[logicalId];
  if (!found) throw new Error(`no resource ${logicalId}`);
  return found;
}

/** The value at a path of keys inside nested objects, or undefined where the path breaks off. */
export function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);
}

/** `{Ref: id}` → id; anything else → undefined. */
export const refTarget = (value: unknown): string | undefined => (isRecord(value) && typeof value.Ref === 'string' ? value.Ref : undefined);

/** `{'Fn::GetAtt': [id, attribute]}` → [id, attribute]; anything else → undefined. */
export function getAttTarget(value: unknown): [string, string] | undefined {
  if (!isRecord(value)) return undefined;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') return [getAtt[0], getAtt[1]];
  return undefined;
}

export const asArray = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Logical ids of every resource a value references through Ref or Fn::GetAtt, at any depth. */
export function referencedIds(value: unknown): Set<string> {
  const ids = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isRecord(node)) return;
    const ref = refTarget(node);
    if (ref) ids.add(ref);
    const getAtt = getAttTarget(node);
    if (getAtt) ids.add(getAtt[0]);
    Object.values(node).forEach(visit);
  };
  visit(value);
  return ids;
}

/** A dependency cycle between resources (each depends on the next), or undefined if there is none. */
export function findDependencyCycle(template: Template): string[] | undefined {
  const resources = templateJson(template).Resources;
  const dependencies = new Map(
    Object.entries(resources).map(([id, res]) => [
      id,
      [...referencedIds(res.Properties), ...asArray(res.DependsOn).map(String)].filter((dep) => dep in resources),
    ]),
  );
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const loopStart = onPath.indexOf(id);
    if (loopStart >= 0) return [...onPath.slice(loopStart), id];
    if (done.has(id)) return undefined;
    onPath.push(id);
    for (const dep of dependencies.get(id) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    onPath.pop();
    done.add(id);
    return undefined;
  };
  for (const id of dependencies.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * The logical id of the L1 resource behind the one construct whose id is `constructId`, read from
 * the construct paths the synthesis records (`aws:cdk:path`, e.g. `Stack/Webhooks/Jobs/Resource`).
 */
export function logicalIdOfConstruct(template: Template, type: string, constructId: string): string {
  const found = resourcesOfType(template, type).filter(([, res]) => {
    const segments = String(at(res.Metadata, 'aws:cdk:path')).split('/');
    return segments.at(-1) === 'Resource' && segments.at(-2) === constructId;
  });
  if (found.length !== 1) throw new Error(`${found.length} resources of type ${type} belong to a construct ${constructId}`);
  return (found[0] as [string, CfnResource])[0];
}

/** The table built from a definition: tables.ts gives it the definition's id as construct id. */
export const tableLogicalId = (template: Template, definition: TableDefinition): string =>
  logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', definition.id);

/** The full path of an API Gateway method, e.g. `/api/v1/secrets/{id}`. */
export function methodPath(template: Template, methodId: string): string {
  const segments: string[] = [];
  let parent = at(resource(template, methodId).Properties, 'ResourceId');
  for (let resourceId = refTarget(parent); resourceId; resourceId = refTarget(parent)) {
    const apiResource = resource(template, resourceId);
    segments.unshift(String(at(apiResource.Properties, 'PathPart')));
    parent = at(apiResource.Properties, 'ParentId');
  }
  if (getAttTarget(parent)?.[1] !== 'RootResourceId') throw new Error(`method ${methodId} does not hang off the API root`);
  return `/${segments.join('/')}`;
}

/** The function a Lambda proxy method invokes, from its integration URI. */
export function integratedFunctionId(template: Template, methodId: string): string {
  const uri = at(resource(template, methodId).Properties, 'Integration', 'Uri');
  const resources = templateJson(template).Resources;
  const functionIds = [...referencedIds(uri)].filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');
  if (functionIds.length !== 1) throw new Error(`method ${methodId} integrates ${functionIds.length} functions`);
  return functionIds[0] as string;
}

/** The one method serving a route. */
export function routeMethodId(template: Template, route: RouteDefinition): string {
  const matching = resourcesOfType(template, 'AWS::ApiGateway::Method').filter(
    ([id, method]) => at(method.Properties, 'HttpMethod') === route.method && methodPath(template, id) === `${API_BASE_PATH}${route.path}`,
  );
  if (matching.length !== 1) throw new Error(`${matching.length} methods serve ${route.method} ${route.path}`);
  return (matching[0] as [string, CfnResource])[0];
}

export const routeFunctionId = (template: Template, route: RouteDefinition): string => integratedFunctionId(template, routeMethodId(template, route));

export interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

/** Every statement granted to a role: its inline policies and every AWS::IAM::Policy attached to it. */
export function roleStatements(template: Template, roleId: string): PolicyStatement[] {
  const inlineDocuments = asArray(at(resource(template, roleId).Properties, 'Policies')).map((policy) => at(policy, 'PolicyDocument'));
  const attachedDocuments = resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => asArray(at(policy.Properties, 'Roles')).some((role) => refTarget(role) === roleId))
    .map(([, policy]) => at(policy.Properties, 'PolicyDocument'));
  return [...inlineDocuments, ...attachedDocuments].flatMap((document) => asArray(at(document, 'Statement')) as PolicyStatement[]);
}
