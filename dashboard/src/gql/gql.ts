/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Shell {\n    me {\n      kind\n      role\n      ...HeaderMe\n    }\n  }\n": typeof types.ShellDocument,
    "\n  fragment ApiKeyRow on ApiKey {\n    id\n    name\n    hint\n    scopes\n    createdAt\n    lastUsedAt\n    revokedAt\n  }\n": typeof types.ApiKeyRowFragmentDoc,
    "\n  mutation RevokeApiKey($id: String!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  fragment HeaderMe on Principal {\n    role\n    user {\n      email\n    }\n    organization {\n      id\n      name\n    }\n    memberships {\n      role\n      organization {\n        id\n        name\n      }\n    }\n  }\n": typeof types.HeaderMeFragmentDoc,
    "\n  mutation SwitchOrganization($organizationId: String!) {\n    switchOrganization(organizationId: $organizationId) {\n      role\n    }\n  }\n": typeof types.SwitchOrganizationDocument,
    "\n  fragment QuotaGauge on Quota {\n    meterClass\n    period\n    limit\n    used\n    resetsAt\n  }\n": typeof types.QuotaGaugeFragmentDoc,
    "\n  fragment RecentError on RequestRecord {\n    id\n    createdAt\n    door\n    method\n    path\n    operation\n    status\n    errorCode\n  }\n": typeof types.RecentErrorFragmentDoc,
    "\n  fragment UsageChart on RequestUsage {\n    range\n    interval\n    bucketStarts\n    totalRequests\n    series {\n      meterClass\n      requests\n      errors\n    }\n  }\n": typeof types.UsageChartFragmentDoc,
    "\n  query ApiKeysPage($first: Int!, $after: String) {\n    apiKeys(first: $first, after: $after) {\n      nodes {\n        id\n        revokedAt\n        ...ApiKeyRow\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ApiKeysPageDocument,
    "\n  subscription KeyAdded {\n    keyAdded {\n      eventId\n      apiKey {\n        id\n        name\n      }\n    }\n  }\n": typeof types.KeyAddedDocument,
    "\n  mutation CreateApiKey($name: String!, $scopes: [String!]) {\n    createApiKey(name: $name, scopes: $scopes) {\n      secret\n      apiKey {\n        id\n        name\n        scopes\n      }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  query OverviewPage {\n    organization {\n      id\n      name\n    }\n    billing {\n      planKey\n      billingState\n      paygEnabled\n      starterGrant {\n        calls\n        used\n        remaining\n      }\n    }\n    credits {\n      balanceCents\n      lowBalance\n    }\n    limits {\n      quotas {\n        meterClass\n        period\n        allowed\n        ...QuotaGauge\n      }\n    }\n    day: requestUsage(range: last_24_hours) {\n      ...UsageChart\n    }\n    month: requestUsage(range: last_30_days) {\n      ...UsageChart\n    }\n    recentRequests(first: 10, errorsOnly: true) {\n      ...RecentError\n    }\n  }\n": typeof types.OverviewPageDocument,
    "\n  query RotateKeyPage($id: String!, $replacementId: String!, $withReplacement: Boolean!) {\n    old: apiKey(id: $id) {\n      id\n      name\n      hint\n      scopes\n      lastUsedAt\n      revokedAt\n    }\n    replacement: apiKey(id: $replacementId) @include(if: $withReplacement) {\n      id\n      name\n      hint\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.RotateKeyPageDocument,
};
const documents: Documents = {
    "\n  query Shell {\n    me {\n      kind\n      role\n      ...HeaderMe\n    }\n  }\n": types.ShellDocument,
    "\n  fragment ApiKeyRow on ApiKey {\n    id\n    name\n    hint\n    scopes\n    createdAt\n    lastUsedAt\n    revokedAt\n  }\n": types.ApiKeyRowFragmentDoc,
    "\n  mutation RevokeApiKey($id: String!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  fragment HeaderMe on Principal {\n    role\n    user {\n      email\n    }\n    organization {\n      id\n      name\n    }\n    memberships {\n      role\n      organization {\n        id\n        name\n      }\n    }\n  }\n": types.HeaderMeFragmentDoc,
    "\n  mutation SwitchOrganization($organizationId: String!) {\n    switchOrganization(organizationId: $organizationId) {\n      role\n    }\n  }\n": types.SwitchOrganizationDocument,
    "\n  fragment QuotaGauge on Quota {\n    meterClass\n    period\n    limit\n    used\n    resetsAt\n  }\n": types.QuotaGaugeFragmentDoc,
    "\n  fragment RecentError on RequestRecord {\n    id\n    createdAt\n    door\n    method\n    path\n    operation\n    status\n    errorCode\n  }\n": types.RecentErrorFragmentDoc,
    "\n  fragment UsageChart on RequestUsage {\n    range\n    interval\n    bucketStarts\n    totalRequests\n    series {\n      meterClass\n      requests\n      errors\n    }\n  }\n": types.UsageChartFragmentDoc,
    "\n  query ApiKeysPage($first: Int!, $after: String) {\n    apiKeys(first: $first, after: $after) {\n      nodes {\n        id\n        revokedAt\n        ...ApiKeyRow\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ApiKeysPageDocument,
    "\n  subscription KeyAdded {\n    keyAdded {\n      eventId\n      apiKey {\n        id\n        name\n      }\n    }\n  }\n": types.KeyAddedDocument,
    "\n  mutation CreateApiKey($name: String!, $scopes: [String!]) {\n    createApiKey(name: $name, scopes: $scopes) {\n      secret\n      apiKey {\n        id\n        name\n        scopes\n      }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  query OverviewPage {\n    organization {\n      id\n      name\n    }\n    billing {\n      planKey\n      billingState\n      paygEnabled\n      starterGrant {\n        calls\n        used\n        remaining\n      }\n    }\n    credits {\n      balanceCents\n      lowBalance\n    }\n    limits {\n      quotas {\n        meterClass\n        period\n        allowed\n        ...QuotaGauge\n      }\n    }\n    day: requestUsage(range: last_24_hours) {\n      ...UsageChart\n    }\n    month: requestUsage(range: last_30_days) {\n      ...UsageChart\n    }\n    recentRequests(first: 10, errorsOnly: true) {\n      ...RecentError\n    }\n  }\n": types.OverviewPageDocument,
    "\n  query RotateKeyPage($id: String!, $replacementId: String!, $withReplacement: Boolean!) {\n    old: apiKey(id: $id) {\n      id\n      name\n      hint\n      scopes\n      lastUsedAt\n      revokedAt\n    }\n    replacement: apiKey(id: $replacementId) @include(if: $withReplacement) {\n      id\n      name\n      hint\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.RotateKeyPageDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Shell {\n    me {\n      kind\n      role\n      ...HeaderMe\n    }\n  }\n"): (typeof documents)["\n  query Shell {\n    me {\n      kind\n      role\n      ...HeaderMe\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ApiKeyRow on ApiKey {\n    id\n    name\n    hint\n    scopes\n    createdAt\n    lastUsedAt\n    revokedAt\n  }\n"): (typeof documents)["\n  fragment ApiKeyRow on ApiKey {\n    id\n    name\n    hint\n    scopes\n    createdAt\n    lastUsedAt\n    revokedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: String!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: String!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HeaderMe on Principal {\n    role\n    user {\n      email\n    }\n    organization {\n      id\n      name\n    }\n    memberships {\n      role\n      organization {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment HeaderMe on Principal {\n    role\n    user {\n      email\n    }\n    organization {\n      id\n      name\n    }\n    memberships {\n      role\n      organization {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchOrganization($organizationId: String!) {\n    switchOrganization(organizationId: $organizationId) {\n      role\n    }\n  }\n"): (typeof documents)["\n  mutation SwitchOrganization($organizationId: String!) {\n    switchOrganization(organizationId: $organizationId) {\n      role\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment QuotaGauge on Quota {\n    meterClass\n    period\n    limit\n    used\n    resetsAt\n  }\n"): (typeof documents)["\n  fragment QuotaGauge on Quota {\n    meterClass\n    period\n    limit\n    used\n    resetsAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RecentError on RequestRecord {\n    id\n    createdAt\n    door\n    method\n    path\n    operation\n    status\n    errorCode\n  }\n"): (typeof documents)["\n  fragment RecentError on RequestRecord {\n    id\n    createdAt\n    door\n    method\n    path\n    operation\n    status\n    errorCode\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment UsageChart on RequestUsage {\n    range\n    interval\n    bucketStarts\n    totalRequests\n    series {\n      meterClass\n      requests\n      errors\n    }\n  }\n"): (typeof documents)["\n  fragment UsageChart on RequestUsage {\n    range\n    interval\n    bucketStarts\n    totalRequests\n    series {\n      meterClass\n      requests\n      errors\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiKeysPage($first: Int!, $after: String) {\n    apiKeys(first: $first, after: $after) {\n      nodes {\n        id\n        revokedAt\n        ...ApiKeyRow\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ApiKeysPage($first: Int!, $after: String) {\n    apiKeys(first: $first, after: $after) {\n      nodes {\n        id\n        revokedAt\n        ...ApiKeyRow\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription KeyAdded {\n    keyAdded {\n      eventId\n      apiKey {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription KeyAdded {\n    keyAdded {\n      eventId\n      apiKey {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($name: String!, $scopes: [String!]) {\n    createApiKey(name: $name, scopes: $scopes) {\n      secret\n      apiKey {\n        id\n        name\n        scopes\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($name: String!, $scopes: [String!]) {\n    createApiKey(name: $name, scopes: $scopes) {\n      secret\n      apiKey {\n        id\n        name\n        scopes\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OverviewPage {\n    organization {\n      id\n      name\n    }\n    billing {\n      planKey\n      billingState\n      paygEnabled\n      starterGrant {\n        calls\n        used\n        remaining\n      }\n    }\n    credits {\n      balanceCents\n      lowBalance\n    }\n    limits {\n      quotas {\n        meterClass\n        period\n        allowed\n        ...QuotaGauge\n      }\n    }\n    day: requestUsage(range: last_24_hours) {\n      ...UsageChart\n    }\n    month: requestUsage(range: last_30_days) {\n      ...UsageChart\n    }\n    recentRequests(first: 10, errorsOnly: true) {\n      ...RecentError\n    }\n  }\n"): (typeof documents)["\n  query OverviewPage {\n    organization {\n      id\n      name\n    }\n    billing {\n      planKey\n      billingState\n      paygEnabled\n      starterGrant {\n        calls\n        used\n        remaining\n      }\n    }\n    credits {\n      balanceCents\n      lowBalance\n    }\n    limits {\n      quotas {\n        meterClass\n        period\n        allowed\n        ...QuotaGauge\n      }\n    }\n    day: requestUsage(range: last_24_hours) {\n      ...UsageChart\n    }\n    month: requestUsage(range: last_30_days) {\n      ...UsageChart\n    }\n    recentRequests(first: 10, errorsOnly: true) {\n      ...RecentError\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RotateKeyPage($id: String!, $replacementId: String!, $withReplacement: Boolean!) {\n    old: apiKey(id: $id) {\n      id\n      name\n      hint\n      scopes\n      lastUsedAt\n      revokedAt\n    }\n    replacement: apiKey(id: $replacementId) @include(if: $withReplacement) {\n      id\n      name\n      hint\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query RotateKeyPage($id: String!, $replacementId: String!, $withReplacement: Boolean!) {\n    old: apiKey(id: $id) {\n      id\n      name\n      hint\n      scopes\n      lastUsedAt\n      revokedAt\n    }\n    replacement: apiKey(id: $replacementId) @include(if: $withReplacement) {\n      id\n      name\n      hint\n      lastUsedAt\n      revokedAt\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;