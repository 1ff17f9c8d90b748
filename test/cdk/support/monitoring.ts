import type { Template } from 'aws-cdk-lib/assertions';
import { at, isRecord, resourcesOfType } from './template';

/** The one alarm on the API's 5XXError metric. */
export function apiServerErrorsAlarmId(template: Template): string {
  const found = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(
    ([, alarm]) => at(alarm.Properties, 'Namespace') === 'AWS/ApiGateway' && at(alarm.Properties, 'MetricName') === '5XXError',
  );
  if (found.length !== 1) throw new Error(`${found.length} alarms watch the API's 5xx`);
  return (found[0] as [string, unknown])[0];
}

/** The one alarm on the tables' consumed write units (the cost guard, test/cdk/sign-in.test.ts). */
export function writeUnitsAlarmId(template: Template): string {
  const found = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(([, alarm]) =>
    JSON.stringify(at(alarm.Properties, 'Metrics') ?? []).includes('ConsumedWriteCapacityUnits'),
  );
  if (found.length !== 1) throw new Error(`${found.length} alarms watch the tables' write units`);
  return (found[0] as [string, unknown])[0];
}

export interface DashboardWidget {
  readonly type: string;
  readonly properties: { readonly title?: string; readonly metrics?: unknown[][]; readonly alarms?: string[] };
}

/**
 * The one dashboard's widgets. Its body is JSON joined with references; each reference is put in
 * as `<Ref:id>` or `<GetAtt:id.attribute>`, so that the JSON parses and the references can be told apart.
 */
export function dashboardWidgets(template: Template): DashboardWidget[] {
  const dashboards = resourcesOfType(template, 'AWS::CloudWatch::Dashboard');
  if (dashboards.length !== 1) throw new Error(`${dashboards.length} dashboards`);
  const join = at(dashboards[0]?.[1].Properties, 'DashboardBody', 'Fn::Join');
  const parts: unknown = Array.isArray(join) ? join[1] : undefined;
  if (!Array.isArray(parts)) throw new Error('the dashboard body is not joined from parts');
  const text = parts
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      if (isRecord(part) && typeof part.Ref === 'string') return `<Ref:${part.Ref}>`;
      const getAtt = isRecord(part) ? part['Fn::GetAtt'] : undefined;
      if (Array.isArray(getAtt)) return `<GetAtt:${getAtt.join('.')}>`;
      throw new Error(`unexpected part of the dashboard body: ${JSON.stringify(part)}`);
    })
    .join('');
  return (JSON.parse(text) as { widgets: DashboardWidget[] }).widgets;
}
