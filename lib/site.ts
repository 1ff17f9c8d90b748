import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  API_PATH_PREFIX,
  EDGE_HEADERS,
  PAGE_CACHE_CONTROL,
  PAGE_FILES,
  pageHeaders,
  PAGES_BUILD_DIR,
  REQUEST_PATH_PATTERN,
  REVEAL_PATH_PATTERN,
} from '#contract/site';
import type { SecretsApi } from './api';
import type { SecretsStackConfig } from './config';

const PAGES_DIR = path.resolve(__dirname, '..', PAGES_BUILD_DIR);

export interface SecretsSiteProps {
  readonly api: SecretsApi;
  readonly customDomain?: SecretsStackConfig['customDomain'];
  /** Write the viewer's IP into EDGE_HEADERS.viewerIp on API requests, for the web ACL's rate rule. */
  readonly forwardViewerIp: boolean;
  /** createAccess=signed-in: the origins the share page signs in at, added to its CSP's connect-src. */
  readonly signInOrigins?: readonly string[];
}

/** One origin: a CloudFront distribution serving the pages from a private bucket and the API under /api/*. */
export class SecretsSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly deployment: BucketDeployment;
  /** Sent by the distribution to the API with every request; the functions that read the client's address check it. */
  readonly originSecret: Secret;
  /** `https://<host>`, without a trailing slash: `{site_url}`. */
  readonly url: string;

  constructor(scope: Construct, id: string, { api, customDomain, forwardViewerIp, signInOrigins = [] }: SecretsSiteProps) {
    super(scope, id);
    if (!existsSync(path.join(PAGES_DIR, PAGE_FILES.share))) {
      throw new Error(`the pages are not built in ${PAGES_DIR}: run npm ci, or npm run build -w pages`);
    }

    // Readable by the distribution alone (origin access control), TLS only.
    this.bucket = new Bucket(this, 'Pages', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });

    this.originSecret = new Secret(this, 'OriginSecret', {
      description: "Sent by the CloudFront distribution to the API; proves that its viewer address header is CloudFront's",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    const apiOrigin = new HttpOrigin(api.domainName, {
      // CloudFront asks for /api/v1/..., the API answers at /<stage>/api/v1/...
      originPath: api.stagePath,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // Resolved by CloudFormation at deploy time: the value is in no template and no log.
      customHeaders: { [EDGE_HEADERS.originSecret]: this.originSecret.secretValue.unsafeUnwrap() },
    });

    const certificate = customDomain && Certificate.fromCertificateArn(this, 'Certificate', customDomain.certificateArn);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'One-time secrets: share and reveal pages, and the API under /api/',
      defaultRootObject: PAGE_FILES.share,
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(customDomain && certificate
        ? { domainNames: [customDomain.domainName], certificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: pageHeadersPolicy(this, signInOrigins),
        functionAssociations: [{ function: revealPathFunction(this), eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: {
        [`${API_PATH_PREFIX}*`]: {
          origin: apiOrigin,
          // A program that asked for http:// must not be redirected: its POST would come back as a GET.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every viewer header but Host, which API Gateway must see as its own, and CloudFront's headers.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          ...(forwardViewerIp ? { functionAssociations: [{ function: viewerIpFunction(this), eventType: FunctionEventType.VIEWER_REQUEST }] } : {}),
        },
      },
    });

    this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(PAGES_DIR)],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      // The edge keeps the files until a deploy replaces them.
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 256,
    });

    this.url = `https://${customDomain?.domainName ?? this.distribution.distributionDomainName}`;
  }
}

/** The PAGE_HEADERS local mode sends, in the shape of a response headers policy; any header it cannot place fails synthesis. */
function pageHeadersPolicy(scope: Construct, signInOrigins: readonly string[]): ResponseHeadersPolicy {
  const {
    'content-security-policy': contentSecurityPolicy,
    'referrer-policy': referrerPolicy,
    'x-frame-options': frameOption,
    'strict-transport-security': hsts,
    'x-content-type-options': contentTypeOptions,
    ...custom
  } = pageHeaders(signInOrigins);
  const hstsParts = /^max-age=(\d+)(; includeSubDomains)?$/.exec(hsts);
  if (!hstsParts?.[1] || contentTypeOptions !== 'nosniff') throw new Error('PAGE_HEADERS has a value the headers policy cannot express');
  return new ResponseHeadersPolicy(scope, 'PageHeaders', {
    comment: 'Security headers of the share and reveal pages (contract/site.ts)',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: enumMember(HeadersFrameOption, frameOption), override: true },
      referrerPolicy: { referrerPolicy: enumMember(HeadersReferrerPolicy, referrerPolicy), override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(Number(hstsParts[1])),
        includeSubdomains: hstsParts[2] !== undefined,
        override: true,
      },
    },
    customHeadersBehavior: {
      customHeaders: Object.entries(custom).map(([header, value]) => ({ header, value, override: true })),
    },
  });
}

function enumMember<T extends string>(members: Record<string, T>, value: string): T {
  const member = Object.values(members).find((candidate) => candidate === value);
  if (member === undefined) throw new Error(`no response headers policy setting for ${value}`);
  return member;
}

/** A viewer-request function: source text run by CloudFront, which imports nothing, so values are written into it. */
const viewerRequestFunction = (scope: Construct, id: string, comment: string, globals: string[], change: string[]): CloudFrontFunction =>
  new CloudFrontFunction(scope, id, {
    comment,
    runtime: FunctionRuntime.JS_2_0,
    code: FunctionCode.fromInline(
      [...globals, 'function handler(event) {', '  var request = event.request;', ...change, '  return request;', '}'].join('\n'),
    ),
  });

/** `/<id>` → the reveal page, `/r/<id>…` → the request page. */
const revealPathFunction = (scope: Construct): CloudFrontFunction =>
  viewerRequestFunction(
    scope,
    'RevealPath',
    "Serves a secret's link with the reveal page, a request's with the request page",
    [`var REVEAL_PATH = ${REVEAL_PATH_PATTERN.toString()};`, `var REQUEST_PATH = ${REQUEST_PATH_PATTERN.toString()};`],
    [
      `  if (REVEAL_PATH.test(request.uri)) request.uri = ${JSON.stringify(`/${PAGE_FILES.reveal}`)};`,
      `  else if (REQUEST_PATH.test(request.uri)) request.uri = ${JSON.stringify(`/${PAGE_FILES.request}`)};`,
    ],
  );

/** Writes the viewer's bare IP into our header over what the viewer sent, for WAF (docs/decisions/waf.md). */
const viewerIpFunction = (scope: Construct): CloudFrontFunction =>
  viewerRequestFunction(
    scope,
    'ViewerIp',
    "Passes the viewer's IP to the API's web ACL",
    [],
    [`  request.headers[${JSON.stringify(EDGE_HEADERS.viewerIp)}] = { value: event.viewer.ip };`],
  );
