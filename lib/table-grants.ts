import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { TableGrant } from '#lambdas/definitions/access';

/** A grant's IAM statement on a table; ReturnValues with IfExists lets a request that asks for none pass. */
export function tableGrantStatement(grant: TableGrant, tableArn: string): PolicyStatement {
  const conditions: Record<string, Record<string, string[]>> = {};
  if (grant.attributes) {
    const operator = grant.attributes.some((name) => name.endsWith('*')) ? 'ForAllValues:StringLike' : 'ForAllValues:StringEquals';
    conditions[operator] = { 'dynamodb:Attributes': [...grant.attributes] };
  }
  if (grant.leadingKeys)
    conditions['ForAllValues:StringLike'] = { ...conditions['ForAllValues:StringLike'], 'dynamodb:LeadingKeys': [...grant.leadingKeys] };
  const ifExists: Record<string, string[]> = {
    ...(grant.returnValues ? { 'dynamodb:ReturnValues': [...grant.returnValues] } : {}),
    ...(grant.specificAttributesOnly ? { 'dynamodb:Select': ['SPECIFIC_ATTRIBUTES'] } : {}),
  };
  if (Object.keys(ifExists).length > 0) conditions.StringEqualsIfExists = ifExists;
  return new PolicyStatement({
    actions: [...grant.actions],
    resources: [tableArn],
    ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
  });
}
