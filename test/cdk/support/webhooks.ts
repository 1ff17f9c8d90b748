import type { Template } from 'aws-cdk-lib/assertions';
import { SECRETS_TABLE } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { type CfnResource, at, logicalIdOfConstruct, refTarget, resourcesOfType, tableLogicalId } from './template';

/** The queue built for a QUEUES entry, found by its construct id wherever it sits in the tree. */
export const queueLogicalId = (template: Template, queue: (typeof QUEUES)[keyof typeof QUEUES]): string =>
  logicalIdOfConstruct(template, 'AWS::SQS::Queue', queue.id);

export const getAtt = (logicalId: string, attribute: string): { 'Fn::GetAtt': [string, string] } => ({
  'Fn::GetAtt': [logicalId, attribute],
});

/** The one event source mapping reading from a source ARN. */
export function mappingFrom(template: Template, sourceArn: unknown): CfnResource {
  const found = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').filter(
    ([, mapping]) => JSON.stringify(at(mapping.Properties, 'EventSourceArn')) === JSON.stringify(sourceArn),
  );
  if (found.length !== 1) throw new Error(`${found.length} event source mappings read from ${JSON.stringify(sourceArn)}`);
  return (found[0] as [string, CfnResource])[1];
}

export interface Pipeline {
  readonly fanOutMapping: CfnResource;
  readonly deliveryMapping: CfnResource;
  /** The functions those mappings invoke. */
  readonly fanOutId: string;
  readonly deliveryId: string;
}

/** The pipeline as the template wires it: secrets stream → fan-out, jobs queue → delivery. */
export function pipelineOf(template: Template): Pipeline {
  const fanOutMapping = mappingFrom(template, getAtt(tableLogicalId(template, SECRETS_TABLE), 'StreamArn'));
  const deliveryMapping = mappingFrom(template, getAtt(queueLogicalId(template, QUEUES.jobs), 'Arn'));
  const invoked = (mapping: CfnResource): string => {
    const id = refTarget(at(mapping.Properties, 'FunctionName'));
    if (!id) throw new Error('an event source mapping invokes no function of this stack');
    return id;
  };
  return { fanOutMapping, deliveryMapping, fanOutId: invoked(fanOutMapping), deliveryId: invoked(deliveryMapping) };
}
