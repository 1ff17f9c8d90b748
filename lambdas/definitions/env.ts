/** Names of the environment variables the functions read; the stack and local mode set them. */
export const ENV = {
  siteUrl: 'SITE_URL',
  keysPerIpPerHour: 'KEYS_PER_IP_PER_HOUR',
  webhookAllowLoopback: 'WEBHOOK_ALLOW_LOOPBACK',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  /** First webhook retry delay in ms; each later retry doubles it. */
  webhookRetryBaseMs: 'WEBHOOK_RETRY_BASE_MS',
  /** The distribution's secret origin header (EDGE_HEADERS.originSecret); unset: no proxy is trusted. */
  originSecret: 'ORIGIN_SECRET',
  /** Powertools Logger's level (one of LOG_LEVELS); the stack sets it from its context. */
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  /**
   * The `service` of every log line and metric; the stack sets its own name, so that two stages
   * in one account count apart. Unset (local mode, tests): SERVICE_NAME.
   */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** MiB a key, and a client address, may send to POST /secrets and POST /requests/{id} in a sliding day (STORED_BYTES_LIMIT). */
  storedMiBPerKeyPerDay: 'STORED_MIB_PER_KEY_PER_DAY',
  storedMiBPerAddressPerDay: 'STORED_MIB_PER_ADDRESS_PER_DAY',
  /** Who may create secrets: one of CREATE_ACCESS_MODES (definitions/create-access.ts). */
  createAccess: 'CREATE_ACCESS',
  /** signed-in: the OpenID Connect issuer whose tokens POST /keys accepts, and the audience they must name. */
  oidcIssuer: 'OIDC_ISSUER',
  oidcAudience: 'OIDC_AUDIENCE',
  /** signed-in: the issuer's JWKS URL; unset: read from its discovery document. */
  oidcJwksUri: 'OIDC_JWKS_URI',
  /** signed-in: the accounts that get a full key (contract/create-access.ts, AllowedAccounts). */
  oidcAllowedDomains: 'OIDC_ALLOWED_DOMAINS',
  oidcAllowedGroups: 'OIDC_ALLOWED_GROUPS',
  oidcGroupsClaim: 'OIDC_GROUPS_CLAIM',
  oidcAnyAccount: 'OIDC_ANY_ACCOUNT',
  /** Local mode only: the local queue service standing in for SQS. */
  sqsEndpoint: 'SQS_ENDPOINT',
} as const;
