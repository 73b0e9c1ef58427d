// The people of an organization: members and roles, invitations, ownership, and the audit log.
// Reads take an API key or a session; changes to people need a signed-in dashboard session, and
// each route's roles come from its operation (resolvers/roles.ts).
import { z } from 'zod';
import {
  AcceptInvitationDocument,
  AuditLogDocument,
  InvitationsDocument,
  InviteMemberDocument,
  MembersDocument,
  MyInvitationsDocument,
  RemoveMemberDocument,
  RevokeInvitationDocument,
  TransferOwnershipDocument,
  UpdateMemberRoleDocument,
  type AuditEntryFieldsFragment,
  type InvitationFieldsFragment,
  type MemberFieldsFragment,
} from '../operations/generated.ts';
import { auditActions } from '../../subscriptions/eventTypes.ts';
import { roles } from '../../resolvers/roles.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const role = z.enum(roles).describe('owner, admin, developer, billing or viewer (README "Roles")');

const member = z.object({
  object: z.literal('member'),
  id: z.string().describe('The person, `usr_…`'),
  email: z.string(),
  role,
  joinedAt: z.iso.datetime(),
  lastSignInAt: z.iso.datetime().nullable().describe('Their last sign-in, to any organization'),
});

const invitation = z.object({
  object: z.literal('invitation'),
  id: z.string().describe('`inv_…`'),
  email: z.string().describe('The address invited'),
  role,
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']).describe('`revoked`: withdrawn, or replaced by a newer invitation of the same address'),
  organization: z.object({ id: z.string(), name: z.string() }),
  invitedBy: z.object({ id: z.string(), email: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().describe('7 days after it was sent'),
  acceptedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

const auditEntry = z.object({
  object: z.literal('audit_entry'),
  id: z.string().describe('`aud_…`'),
  action: z.string().describe(`What was done: ${Object.keys(auditActions).join(', ')}`),
  actor: z.object({ type: z.enum(['user', 'api_key', 'operator', 'system']), id: z.string().nullable().describe('`usr_…` or `key_…`'), email: z.string().nullable() }),
  target: z.object({ type: z.string(), id: z.string().nullable() }).nullable().describe('What it was done to'),
  details: z.record(z.string(), z.unknown()),
  requestId: z.string().nullable().describe('The request that made the change (GET /v1/diagnostics/requests/{request_id})'),
  ipAddress: z.string().nullable().describe('The client address it came from'),
  createdAt: z.iso.datetime(),
});

const toMember = (m: MemberFieldsFragment) => ({ object: 'member' as const, ...m });
const toInvitation = (i: InvitationFieldsFragment) => ({ object: 'invitation' as const, ...i });
const toAuditEntry = (e: AuditEntryFieldsFragment) => ({ object: 'audit_entry' as const, ...e, actor: { ...e.actor, type: e.actor.type as 'user' | 'api_key' | 'operator' | 'system' }, details: (e.details ?? {}) as Record<string, unknown> });

const memberId = z.string().regex(/^usr_[0-9A-Za-z]{24}$/, 'expected a member id, usr_ and 24 letters or digits');
const invitationId = z.string().regex(/^inv_[0-9A-Za-z]{24}$/, 'expected an invitation id, inv_ and 24 letters or digits');
const memberPath = z.strictObject({ member_id: memberId });
const invitationPath = z.strictObject({ invitation_id: invitationId });
const members = { tag: 'Members', meter: 'platform' };
const changes = { ...members, access: 'dashboard' as const };
const page = <N>(connection: { pageInfo: { hasNextPage: boolean; endCursor?: string | null }; nodes: N[] }) => ({
  hasMore: connection.pageInfo.hasNextPage,
  nextCursor: connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null,
});
const ownerRule = 'Only owners make, demote or remove owners; the last owner can be neither demoted nor removed (409 `organization_must_keep_owner`).';

export const memberRoutes = [
  operationRoute({
    name: 'org_members_list',
    method: 'GET',
    path: '/v1/org/members',
    summary: 'List the organization\'s members and their roles, in the order they joined',
    ...members,
    access: 'org',
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(member),
    operation: MembersDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ members: connection }, meta) => ({ object: 'list', data: connection.nodes.map(toMember), ...page(connection), ...meta })),
  operationRoute({
    name: 'org_members_update',
    method: 'PATCH',
    path: '/v1/org/members/{member_id}',
    summary: 'Change a member\'s role',
    description: `Owners and admins change roles. ${ownerRule}`,
    ...changes,
    params: { path: memberPath, body: z.strictObject({ role }) },
    response: member.extend({ requestId: z.string() }),
    errors: ['member_not_found', 'organization_must_keep_owner'],
    operation: UpdateMemberRoleDocument,
    variables: ({ path, body }) => ({ memberId: path.member_id, role: body.role }),
  }).reshape(({ updateMemberRole: m }, meta) => ({ ...toMember(m), ...meta })),
  operationRoute({
    name: 'org_members_remove',
    method: 'DELETE',
    path: '/v1/org/members/{member_id}',
    summary: 'Remove a member, or leave the organization (your own id)',
    description: `Any member may leave (remove themselves); removing someone else needs an owner or admin. ${ownerRule} A removed member's sessions stay signed in without this organization, from their next request.`,
    ...changes,
    params: { path: memberPath },
    response: member.extend({ removedAt: z.iso.datetime(), left: z.boolean().describe('They removed themselves'), requestId: z.string() }),
    errors: ['member_not_found', 'organization_must_keep_owner', 'role_forbidden'],
    operation: RemoveMemberDocument,
    variables: ({ path }) => ({ memberId: path.member_id }),
  }).reshape(({ removeMember: r }, meta) => ({ ...toMember(r.member), removedAt: r.removedAt, left: r.left, ...meta })),
  operationRoute({
    name: 'org_ownership_transfer',
    method: 'POST',
    path: '/v1/org/ownership-transfer',
    summary: 'Hand ownership to another member; you become admin',
    ...changes,
    params: { body: z.strictObject({ memberId: memberId.describe('The member who becomes owner, `usr_…`') }) },
    response: z.object({ object: z.literal('ownership_transfer'), from: member, to: member, requestId: z.string() }),
    errors: ['member_not_found'],
    operation: TransferOwnershipDocument,
    variables: ({ body }) => ({ memberId: body.memberId }),
  }).reshape(({ transferOwnership: r }, meta) => ({ object: 'ownership_transfer', from: toMember(r.from), to: toMember(r.to), ...meta })),
  operationRoute({
    name: 'org_invitations_create',
    method: 'POST',
    path: '/v1/org/invitations',
    summary: 'Invite an address with a role: an email with a single-use link, valid 7 days',
    description:
      'The link (`<public URL>/dashboard/invitations/{id}?token=…`) goes only to the address; its secret is never returned. Inviting an address with a pending invitation replaces it (the old link stops working). Only owners invite owners. ' +
      'Without email delivery (IDS_SMTP_URL), or when the email cannot be sent, nothing is saved (503 `email_delivery_unavailable`).',
    ...changes,
    params: { body: z.strictObject({ email: z.string().max(254).describe('One address'), role }) },
    response: invitation.extend({ requestId: z.string() }),
    errors: ['already_a_member', 'email_delivery_unavailable'],
    operation: InviteMemberDocument,
    variables: ({ body }) => ({ email: body.email, role: body.role }),
  }).reshape(({ inviteMember: i }, meta) => ({ ...toInvitation(i), ...meta })),
  operationRoute({
    name: 'org_invitations_list',
    method: 'GET',
    path: '/v1/org/invitations',
    summary: 'List the organization\'s pending invitations, newest first',
    ...members,
    access: 'org',
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(invitation),
    operation: InvitationsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ invitations: connection }, meta) => ({ object: 'list', data: connection.nodes.map(toInvitation), ...page(connection), ...meta })),
  operationRoute({
    name: 'org_invitations_revoke',
    method: 'DELETE',
    path: '/v1/org/invitations/{invitation_id}',
    summary: 'Withdraw a pending invitation',
    description: 'Idempotent; an accepted invitation is 409 `invitation_not_pending` (remove the member instead).',
    ...changes,
    params: { path: invitationPath },
    response: invitation.extend({ requestId: z.string() }),
    errors: ['invitation_not_found', 'invitation_not_pending'],
    operation: RevokeInvitationDocument,
    variables: ({ path }) => ({ id: path.invitation_id }),
  }).reshape(({ revokeInvitation: i }, meta) => ({ ...toInvitation(i), ...meta })),
  operationRoute({
    name: 'org_invitations_accept',
    method: 'POST',
    path: '/v1/org/invitations/{invitation_id}/accept',
    summary: 'Accept an invitation as the signed-in person',
    description:
      'Needs a signed-in session, in any organization or none. Accepted with the `token` of the invitation link, or without it when the session\'s address is the one invited. The person becomes a member with the invited role, and the session that accepted moves to that organization. ' +
      'A wrong token, or another address without one, is 400 `invitation_invalid`; an expired, withdrawn or used invitation is 409 `invitation_not_pending`.',
    ...members,
    access: 'authenticated',
    params: { path: invitationPath, body: z.strictObject({ token: z.string().min(1).max(200).optional().describe('The `token` of the invitation link') }) },
    response: z.object({ object: z.literal('invitation_acceptance'), organization: z.object({ id: z.string(), name: z.string() }), role, sessionMoved: z.boolean(), invitation, requestId: z.string() }),
    errors: ['invitation_not_found', 'invitation_invalid', 'invitation_not_pending', 'already_a_member', 'browser_session_required'],
    operation: AcceptInvitationDocument,
    variables: ({ path, body }) => ({ id: path.invitation_id, token: body.token ?? null }),
  }).reshape(({ acceptInvitation: a }, meta) => ({ object: 'invitation_acceptance', organization: a.organization, role: a.role, sessionMoved: a.sessionMoved, invitation: toInvitation(a.invitation), ...meta })),
  operationRoute({
    name: 'me_invitations_list',
    method: 'GET',
    path: '/v1/me/invitations',
    summary: 'Pending invitations addressed to the signed-in person, newest first',
    description: 'In every organization; accept one with POST /v1/org/invitations/{invitation_id}/accept (no token needed for your own address).',
    ...members,
    access: 'authenticated',
    params: { query: z.strictObject({ view: viewParam }) },
    response: z.object({ object: z.literal('list'), data: z.array(invitation), requestId: z.string() }),
    errors: ['browser_session_required'],
    operation: MyInvitationsDocument,
  }).reshape(({ myInvitations }, meta) => ({ object: 'list', data: myInvitations.map(toInvitation), ...meta })),
  operationRoute({
    name: 'org_audit_log_list',
    method: 'GET',
    path: '/v1/org/audit-log',
    summary: 'The organization\'s audit log, newest first',
    description: 'Who did what to the organization (people, API keys, operators, the payment processor), with the request id and client address of each change. Each entry is also an `org.audit.<action>` event for webhooks and streams.',
    tag: 'Audit log',
    meter: 'platform',
    access: 'org',
    mcp: true,
    params: {
      query: z.strictObject({
        ...pageParams,
        action: z.enum(Object.keys(auditActions) as [string, ...string[]]).optional().describe('Only entries of this action'),
        actor_id: z.string().min(1).max(100).optional().describe('Only entries of this actor (`usr_…`, `key_…`)'),
        view: viewParam,
      }),
    },
    response: listEnvelope(auditEntry),
    operation: AuditLogDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, action: query.action ?? null, actorId: query.actor_id ?? null }),
  }).reshape(({ auditLog: connection }, meta) => ({ object: 'list', data: connection.nodes.map(toAuditEntry), ...page(connection), ...meta })),
];
