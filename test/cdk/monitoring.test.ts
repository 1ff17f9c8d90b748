import { METRICS, METRICS_NAMESPACE } from '#lambdas/definitions/observability';
import { ROUTES, routeTemplate } from '#lambdas/definitions/routes';
import { API_5XX_ALARM_THRESHOLD } from '#lib/monitoring';
import { type DashboardWidget, apiServerErrorsAlarmId, dashboardWidgets } from './support/monitoring';
import { sharedSynthesis } from './support/synth';
import { at, resource, resourcesOfType, templateJson } from './support/template';

const { stackName, template } = sharedSynthesis();
const widgets = dashboardWidgets(template);
const widget = (title: string): DashboardWidget => {
  const found = widgets.filter((candidate) => candidate.properties.title === title);
  expect(found).toHaveLength(1);
  return found[0] as DashboardWidget;
};
const API_NAME = stackName;
const [topicId] = resourcesOfType(template, 'AWS::SNS::Topic')[0] ?? [];

describe('the API’s 5xx alarm', () => {
  const alarmId = apiServerErrorsAlarmId(template);
  const alarm = resource(template, alarmId).Properties;

  it(`fires on ${API_5XX_ALARM_THRESHOLD} or more 5xx answers of this API within 5 minutes, and reads no data as none`, () => {
    expect(alarm).toMatchObject({
      Dimensions: [{ Name: 'ApiName', Value: API_NAME }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: API_5XX_ALARM_THRESHOLD,
      TreatMissingData: 'notBreaching',
    });
    expect(String(at(alarm, 'AlarmDescription')).length).toBeGreaterThan(40);
  });

  it('notifies the alarm topic', () => {
    expect(at(alarm, 'AlarmActions')).toEqual([{ Ref: topicId }]);
  });

  it('watches an API named after the stack, not one of the many named by CDK’s default', () => {
    expect(resourcesOfType(template, 'AWS::ApiGateway::RestApi').map(([, api]) => at(api.Properties, 'Name'))).toEqual([API_NAME]);
  });
});

describe('the dashboard', () => {
  const apiMetric = (metricName: string, stat: string, label: string): unknown[] => [
    'AWS/ApiGateway',
    metricName,
    'ApiName',
    API_NAME,
    { label, stat },
  ];

  it('draws the API’s requests, 4xx and 5xx', () => {
    expect(widget('API requests and errors').properties.metrics).toEqual([
      apiMetric('Count', 'Sum', 'requests'),
      apiMetric('4XXError', 'Sum', '4xx'),
      apiMetric('5XXError', 'Sum', '5xx'),
    ]);
  });

  it('draws the API’s latency, p50 and p99', () => {
    expect(widget('API latency (ms)').properties.metrics).toEqual([apiMetric('Latency', 'p50', 'p50'), apiMetric('Latency', 'p99', 'p99')]);
  });

  it('draws each count of the route table under the dimensions the route builder gives it', () => {
    const counted = ROUTES.flatMap((route) => Object.values(route.counts ?? {}).map((name) => ({ name, route: routeTemplate(route) })));
    expect(counted.map(({ name }) => name).sort()).toEqual(
      // A request's answer is a secret created too, drawn under its own route.
      [METRICS.secretsCreated, METRICS.secretsCreated, METRICS.secretsClaimed, METRICS.claimsRefused, METRICS.secretsRevoked].sort(),
    );
    expect(widget('Secrets').properties.metrics).toEqual(
      counted.map(({ name, route }) => [METRICS_NAMESPACE, name, 'route', route, 'service', stackName, { label: name, stat: 'Sum' }]),
    );
  });

  it('draws each webhook count summed over its events', () => {
    const drawn = widget('Webhooks').properties.metrics?.map(([line]) => line as { label: string; expression: string });
    expect(drawn?.map(({ label }) => label)).toEqual([
      METRICS.webhooksDelivered,
      METRICS.webhookAttemptsFailed,
      METRICS.webhooksDeadLettered,
      METRICS.webhooksGone,
    ]);
    for (const { label, expression } of drawn ?? []) {
      expect(expression).toBe(`SUM(SEARCH('{${METRICS_NAMESPACE},event,service} service="${stackName}" MetricName="${label}"', 'Sum', 300))`);
    }
  });

  it('shows the state of every alarm of the stack', () => {
    const alarmIds = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    expect(widget('Alarms').properties.alarms?.sort()).toEqual(alarmIds.map((id) => `<GetAtt:${id}.Arn>`).sort());
    expect(alarmIds).toEqual(expect.arrayContaining([apiServerErrorsAlarmId(template)]));
  });

  it('is linked from the stack’s outputs', () => {
    expect(JSON.stringify(templateJson(template).Outputs?.DashboardUrl?.Value)).toContain('#dashboards:name=');
  });
});
