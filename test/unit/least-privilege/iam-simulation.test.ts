import { SIMULATED_ACCOUNT_ID, simulatedFindings, type FunctionRole, type SimulatedCall } from '#test/integration/support/iam-simulation';

/**
 * The least-privilege check's engine on a synthetic role: it must catch a call its role does not
 * allow, a grant no call uses, and a condition that does not hold, and pass a role that fits.
 */

const TABLE = `arn:aws:dynamodb:us-east-1:${SIMULATED_ACCOUNT_ID}:table/Keys`;
const QUEUE = `arn:aws:sqs:us-east-1:${SIMULATED_ACCOUNT_ID}:Jobs`;

const countRequest = {
  Effect: 'Allow' as const,
  Action: 'dynamodb:UpdateItem',
  Resource: TABLE,
  Condition: {
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'slots'] },
    StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW'] },
  },
};

const role = (statements: FunctionRole['statements'], usedByLambda: string[] = []): FunctionRole => ({
  name: 'keys-get',
  statements,
  usedByLambda: new Set(usedByLambda),
  checkedResources: new Set([TABLE, QUEUE]),
});

const update = (attributes: string[], returnValues: string): SimulatedCall => ({
  function: 'keys-get',
  action: 'dynamodb:UpdateItem',
  resourceArn: TABLE,
  context: { 'dynamodb:Attributes': attributes, 'dynamodb:ReturnValues': returnValues },
  description: `UpdateItem naming [${attributes.join(', ')}] with ${returnValues}`,
});

test('a role that allows every call and whose every grant is used passes', async () => {
  expect(await simulatedFindings([role([countRequest])], [update(['pk', 'slots'], 'ALL_NEW')])).toEqual([]);
});

test('a call naming an attribute outside the condition is refused', async () => {
  expect(await simulatedFindings([role([countRequest])], [update(['pk', 'slots'], 'ALL_NEW'), update(['pk', 'webhookSecret'], 'ALL_NEW')])).toEqual([
    'keys-get sent UpdateItem naming [pk, webhookSecret] with ALL_NEW, which its role does not allow',
  ]);
});

test('a call reading back what the condition does not allow is refused', async () => {
  expect(await simulatedFindings([role([countRequest])], [update(['pk', 'slots'], 'ALL_NEW'), update(['pk'], 'ALL_OLD')])).toEqual([
    'keys-get sent UpdateItem naming [pk] with ALL_OLD, which its role does not allow',
  ]);
});

test('a grant no call uses is reported, one action at a time, unless Lambda uses it for the function', async () => {
  const wide = { Effect: 'Allow' as const, Action: ['dynamodb:GetItem', 'dynamodb:DeleteItem'], Resource: TABLE };
  const polled = { Effect: 'Allow' as const, Action: 'sqs:ReceiveMessage', Resource: QUEUE };
  const findings = await simulatedFindings(
    [role([countRequest, wide, polled], [QUEUE])],
    [
      update(['pk', 'slots'], 'ALL_NEW'),
      { function: 'keys-get', action: 'dynamodb:GetItem', resourceArn: TABLE, context: {}, description: 'GetItem' },
    ],
  );
  expect(findings).toEqual([`keys-get's role grants dynamodb:DeleteItem on ${TABLE}, which no integration test made it send`]);
});

test('a Deny wins over an Allow, and a call of a function the stack lacks is reported', async () => {
  const deny = { Effect: 'Deny' as const, Action: 'dynamodb:UpdateItem', Resource: TABLE };
  const findings = await simulatedFindings(
    [role([countRequest, deny])],
    [update(['pk', 'slots'], 'ALL_NEW'), { ...update(['pk'], 'NONE'), function: 'no-such-function' }],
  );
  expect(findings).toEqual([
    'calls were recorded for no-such-function, which is no function of the stack',
    'keys-get sent UpdateItem naming [pk, slots] with ALL_NEW, which its role does not allow',
  ]);
});

test('a read limited to specific attributes: a projection naming others, or selecting all, is refused', async () => {
  const readReceipt = {
    Effect: 'Allow' as const,
    Action: 'dynamodb:BatchGetItem',
    Resource: TABLE,
    Condition: {
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'state'] },
      StringEqualsIfExists: { 'dynamodb:Select': ['SPECIFIC_ATTRIBUTES'] },
    },
  };
  const read = (attributes: string[], select: string): SimulatedCall => ({
    function: 'keys-get',
    action: 'dynamodb:BatchGetItem',
    resourceArn: TABLE,
    context: { 'dynamodb:Attributes': attributes, 'dynamodb:Select': select },
    description: `BatchGetItem of [${attributes.join(', ')}] selecting ${select}`,
  });
  expect(
    await simulatedFindings(
      [role([readReceipt])],
      [read(['pk', 'sk', 'state'], 'SPECIFIC_ATTRIBUTES'), read(['pk', 'sk', 'data'], 'SPECIFIC_ATTRIBUTES'), read(['pk', 'sk'], 'ALL_ATTRIBUTES')],
    ),
  ).toEqual([
    'keys-get sent BatchGetItem of [pk, sk, data] selecting SPECIFIC_ATTRIBUTES, which its role does not allow',
    'keys-get sent BatchGetItem of [pk, sk] selecting ALL_ATTRIBUTES, which its role does not allow',
  ]);
});
