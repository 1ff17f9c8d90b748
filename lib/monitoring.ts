import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { METRICS, METRICS_NAMESPACE, METRIC_DIMENSIONS, type MetricName } from '#lambdas/definitions/observability';
import { ROUTES, routeTemplate } from '#lambdas/definitions/routes';
import { functionsServiceName } from './service-function';

/** Each point of the dashboard's graphs, and of the 5xx alarm. */
const PERIOD = Duration.minutes(5);

/** One 5xx can be a timeout; five within five minutes is a failing dependency or a bug. */
export const API_5XX_ALARM_THRESHOLD = 5;

const WIDGET_WIDTH = 12;

export interface MonitoringProps {
  readonly restApi: RestApi;
  /** The stack's other alarms, shown beside the API's. */
  readonly alarms: readonly Alarm[];
  /** Whose consumed write units the cost alarm sums. */
  readonly tables: readonly ITable[];
  /** Write units in an hour past which it fires (context writeUnitsAlarmPerHour). */
  readonly writeUnitsPerHour: number;
}

/** The cost alarm's period: a flood shows within the hour, a busy minute does not. */
const WRITE_UNITS_PERIOD = Duration.hours(1);

/** The service at a glance: the API's traffic, errors and latency, the functions' counts, every alarm. */
export class Monitoring extends Construct {
  readonly dashboard: Dashboard;
  readonly serverErrorsAlarm: Alarm;
  /** Denial of wallet: the tables' consumed write units in an hour (docs/operate.md has its runbook). */
  readonly writeUnitsAlarm: Alarm;

  constructor(scope: Construct, id: string, { restApi, alarms, tables, writeUnitsPerHour }: MonitoringProps) {
    super(scope, id);
    // This stage's counts only.
    const service = functionsServiceName(this);

    const serverErrors = restApi.metricServerError({ period: PERIOD, statistic: Stats.SUM });
    this.serverErrorsAlarm = new Alarm(this, 'ApiServerErrorsAlarm', {
      alarmDescription: `${API_5XX_ALARM_THRESHOLD} or more 5xx answers within 5 minutes. Runbook: docs/operate.md, "API 5xx".`,
      metric: serverErrors,
      threshold: API_5XX_ALARM_THRESHOLD,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No requests, no datapoint: nothing failed.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    const writeUnits = new MathExpression({
      expression: tables.map((_, i) => `w${i}`).join(' + '),
      usingMetrics: Object.fromEntries(
        tables.map((table, i) => [`w${i}`, table.metricConsumedWriteCapacityUnits({ period: WRITE_UNITS_PERIOD, statistic: Stats.SUM })]),
      ),
      label: 'write units consumed',
      period: WRITE_UNITS_PERIOD,
    });
    this.writeUnitsAlarm = new Alarm(this, 'WriteUnitsAlarm', {
      alarmDescription: `More than ${writeUnitsPerHour} write units within an hour. Runbook: docs/operate.md, "Write capacity".`,
      metric: writeUnits,
      threshold: writeUnitsPerHour,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      widgets: [
        [
          graph('API requests and errors', [
            restApi.metricCount({ period: PERIOD, statistic: Stats.SUM, label: 'requests' }),
            restApi.metricClientError({ period: PERIOD, statistic: Stats.SUM, label: '4xx' }),
            serverErrors.with({ label: '5xx' }),
          ]),
          graph('API latency (ms)', [
            restApi.metricLatency({ period: PERIOD, statistic: Stats.p(50), label: 'p50' }),
            restApi.metricLatency({ period: PERIOD, statistic: Stats.p(99), label: 'p99' }),
          ]),
        ],
        [
          graph('Secrets', routeCountMetrics(service)),
          graph(
            'Webhooks',
            [METRICS.webhooksDelivered, METRICS.webhookAttemptsFailed, METRICS.webhooksDeadLettered, METRICS.webhooksGone].map((name) =>
              webhookTotal(service, name),
            ),
          ),
        ],
        [graph('DynamoDB write units an hour', [writeUnits])],
        [new AlarmStatusWidget({ title: 'Alarms', alarms: [this.serverErrorsAlarm, this.writeUnitsAlarm, ...alarms], width: 2 * WIDGET_WIDTH })],
      ],
    });
  }
}

const graph = (title: string, left: IMetric[]): GraphWidget => new GraphWidget({ title, left, width: WIDGET_WIDTH });

/** What the route table says each route counts, under the dimensions the route builder gives it. */
const routeCountMetrics = (service: string): Metric[] =>
  ROUTES.flatMap((route) =>
    Object.values(route.counts ?? {}).map(
      (metricName) =>
        new Metric({
          namespace: METRICS_NAMESPACE,
          metricName,
          dimensionsMap: { service, [METRIC_DIMENSIONS.route]: routeTemplate(route) },
          period: PERIOD,
          statistic: Stats.SUM,
          label: metricName,
        }),
    ),
  );

/** A webhook count summed over its event dimension, whatever events it has seen. */
const webhookTotal = (service: string, metricName: MetricName): MathExpression =>
  new MathExpression({
    expression: `SUM(SEARCH('{${METRICS_NAMESPACE},${METRIC_DIMENSIONS.event},service} service="${service}" MetricName="${metricName}"', '${Stats.SUM}', ${PERIOD.toSeconds()}))`,
    usingMetrics: {},
    label: metricName,
    period: PERIOD,
  });
