// The people of an organization: members and their roles, invitations, and the audit log of what
// people did (resolvers/accounts/members.ts, invitations.ts, auditLog.ts). Each field names the
// capability a person's role must grant (resolvers/roles.ts); the checks that depend on whom a
// change is about (an owner, oneself) are made by the resolvers.
import { meteredAsPlatform } from '../resolvers/metering.ts';
import { acceptInvitation, invitationForPerson, invitationStatus, inviteMember, myInvitationsWhere, organizationInvitationsWhere, revokeInvitation } from '../resolvers/accounts/invitations.ts';
import { auditLogWhere } from '../resolvers/accounts/auditLog.ts';
import { organizationMembers, removeMember, transferOwnership, updateMemberRole, type MemberView } from '../resolvers/accounts/members.ts';
import { isRole, needs, type Role as RoleName } from '../resolvers/roles.ts';
import { builder } from './builder.ts';
import { Role } from './accounts.ts';
import { Organization, User } from './platform.ts';

export const Member = builder.objectRef<MemberView>('Member').implement({
  description: 'A person in the organization, and their role.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The person\'s id, `usr_…`' }),
    email: t.exposeString('email'),
    role: t.field({ type: Role, resolve: (m) => m.role }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime' }),
    lastSignInAt: t.expose('lastSignInAt', { type: 'DateTime', nullable: true, description: 'Their last sign-in, to any organization' }),
  }),
});

const RemovedMember = builder.objectRef<MemberView & { removedAt: Date; left: boolean }>('RemovedMember').implement({
  description: 'A member who was removed, or left.',
  fields: (t) => ({
    member: t.field({ type: Member, resolve: (m) => m }),
    removedAt: t.expose('removedAt', { type: 'DateTime' }),
    left: t.exposeBoolean('left', { description: 'They removed themselves' }),
  }),
});

const OwnershipTransfer = builder.objectRef<{ from: MemberView; to: MemberView }>('OwnershipTransfer').implement({
  description: 'Ownership handed from one member (now admin) to another (now owner).',
  fields: (t) => ({
    from: t.field({ type: Member, resolve: (r) => r.from }),
    to: t.field({ type: Member, resolve: (r) => r.to }),
  }),
});

const InvitationStatus = builder.enumType('InvitationStatus', { values: ['pending', 'accepted', 'revoked', 'expired'] as const });

const roleOf = (value: string): RoleName => (isRole(value) ? value : 'viewer');

export const Invitation = builder.prismaObject('Invitation', {
  description: 'An invitation to join an organization with a role, sent by email. Its link\'s secret is never readable.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `inv_…`' }),
    email: t.exposeString('email', { description: 'The address invited' }),
    role: t.field({ type: Role, resolve: (i) => roleOf(i.role) }),
    status: t.field({ type: InvitationStatus, resolve: (i) => invitationStatus(i) }),
    organization: t.relation('org', { type: Organization }),
    invitedBy: t.loadable({
      type: User,
      nullable: true,
      description: 'Who sent it (null once that person no longer exists)',
      // one query for a page of invitations
      load: async (ids: string[], ctx) => {
        const users = await ctx.prisma.user.findMany({ where: { id: { in: ids } } });
        return ids.map((id) => users.find((u) => u.id === id) ?? null);
      },
      resolve: (i) => i.invitedById,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: '7 days after it was sent' }),
    acceptedAt: t.expose('acceptedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'Withdrawn, or replaced by a newer invitation of the same address' }),
  }),
});

const InvitationAcceptance = builder.objectRef<{ invitation: { id: string }; orgId: string; role: RoleName; sessionMoved: boolean }>('InvitationAcceptance').implement({
  description: 'An accepted invitation: the person is now a member.',
  fields: (t) => ({
    invitation: t.prismaField({ type: Invitation, resolve: (query, r, _a, ctx) => ctx.prisma.invitation.findUniqueOrThrow({ ...query, where: { id: r.invitation.id } }) }),
    organization: t.prismaField({ type: Organization, resolve: (query, r, _a, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: r.orgId } }) }),
    role: t.field({ type: Role, resolve: (r) => r.role }),
    sessionMoved: t.exposeBoolean('sessionMoved', { description: 'The session that accepted now works in this organization (false for an identity provider\'s token, whose organization the provider chooses)' }),
  }),
});

const AuditActorRef = builder.objectRef<{ type: string; id: string | null; email: string | null }>('AuditActor').implement({
  description: 'Who did it: a person (`user`), an API key, an operator of the service, or the service itself (`system`).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'user, api_key, operator or system' }),
    id: t.exposeString('id', { nullable: true, description: '`usr_…` or `key_…`' }),
    email: t.exposeString('email', { nullable: true }),
  }),
});

const AuditTargetRef = builder.objectRef<{ type: string; id: string | null }>('AuditTarget').implement({
  description: 'What it was done to.',
  fields: (t) => ({ type: t.exposeString('type'), id: t.exposeString('id', { nullable: true }) }),
});

export const AuditEntry = builder.prismaObject('AuditEntry', {
  description: 'One thing a person, key or operator did to the organization.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `aud_…`' }),
    action: t.exposeString('action', { description: 'e.g. member.invited; GET /v1/event_types lists each as the event org.audit.<action>' }),
    actor: t.field({ type: AuditActorRef, resolve: (e) => ({ type: e.actorType, id: e.actorId, email: e.actorEmail }) }),
    target: t.field({ type: AuditTargetRef, nullable: true, resolve: (e) => (e.targetType ? { type: e.targetType, id: e.targetId } : null) }),
    details: t.field({ type: 'JSON', resolve: (e) => e.details ?? {} }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'The request that made the change (GET /v1/diagnostics/requests/{request_id})' }),
    ipAddress: t.exposeString('ipAddress', { nullable: true, description: 'The client address it came from' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  members: t.connection({
    extensions: needs('read'),
    type: Member,
    description: 'The organization\'s members, in the order they joined.',
    resolve: (_r, args, ctx) => organizationMembers(ctx, { first: Math.min(Math.max(args.first ?? 25, 1), 100), after: args.after }),
  }),
  invitations: t.prismaConnection({
    extensions: needs('members'),
    type: Invitation,
    cursor: 'id',
    description: 'The organization\'s pending invitations, newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _r, _a, ctx) => ctx.prisma.invitation.findMany({ ...query, where: organizationInvitationsWhere(ctx), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  myInvitations: t.prismaField({
    extensions: needs('read'),
    type: [Invitation],
    description: 'Pending invitations addressed to the signed-in person\'s email, in any organization, newest first.',
    resolve: (query, _r, _a, ctx) => ctx.prisma.invitation.findMany({ ...query, where: myInvitationsWhere(ctx), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 100 }),
  }),
  auditLog: t.prismaConnection({
    extensions: needs('audit'),
    type: AuditEntry,
    cursor: 'id',
    description: 'The organization\'s audit log, newest first.',
    defaultSize: 25,
    maxSize: 100,
    args: { action: t.arg.string({ description: 'Only entries of this action' }), actorId: t.arg.string({ description: 'Only entries of this actor (`usr_…`, `key_…`)' }) },
    resolve: (query, _r, args, ctx) => ctx.prisma.auditEntry.findMany({ ...query, where: auditLogWhere(ctx, args), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
}));

builder.mutationFields((t) => ({
  updateMemberRole: t.field({
    extensions: needs('members'),
    type: Member,
    description: 'Change a member\'s role (dashboard session only). Making or demoting an owner needs an owner; the last owner cannot be demoted.',
    args: { memberId: t.arg.string({ required: true, description: '`usr_…`' }), role: t.arg({ type: Role, required: true }) },
    resolve: (_r, args, ctx) => updateMemberRole(ctx, args.memberId, args.role),
  }),
  removeMember: t.field({
    // Leaving is open to every member; removing someone else needs `members` (an owner,
    // `ownership`), which the resolver checks once it knows whom the change is about.
    extensions: needs('read'),
    type: RemovedMember,
    description: 'Remove a member, or yourself (leave) (dashboard session only). The last owner can neither leave nor be removed.',
    args: { memberId: t.arg.string({ required: true, description: '`usr_…`' }) },
    resolve: (_r, args, ctx) => removeMember(ctx, args.memberId),
  }),
  transferOwnership: t.field({
    extensions: needs('ownership'),
    type: OwnershipTransfer,
    description: 'Hand ownership to another member, who becomes owner; you become admin (dashboard session only).',
    args: { memberId: t.arg.string({ required: true, description: '`usr_…`' }) },
    resolve: (_r, args, ctx) => transferOwnership(ctx, args.memberId),
  }),
  inviteMember: t.prismaField({
    extensions: needs('members'),
    type: Invitation,
    description: 'Invite an address with a role: an email with a single-use link, valid 7 days (dashboard session only). Inviting a pending address again replaces its invitation.',
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: Role, required: true }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.invitation.findUniqueOrThrow({ ...query, where: { id: (await inviteMember(ctx, args.email, args.role)).id } }),
  }),
  revokeInvitation: t.prismaField({
    extensions: needs('members'),
    type: Invitation,
    description: 'Withdraw a pending invitation (dashboard session only). Idempotent.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.invitation.findUniqueOrThrow({ ...query, where: { id: (await revokeInvitation(ctx, args.id)).id } }),
  }),
  acceptInvitation: t.field({
    // a signed-in person in any organization, or none, joins another one
    extensions: needs('read'),
    type: InvitationAcceptance,
    description: 'Accept an invitation as the signed-in person: with the token of its link, or without one when your address is the one invited. The session moves to the organization joined.',
    args: { id: t.arg.string({ required: true }), token: t.arg.string({ description: 'The `token` of the invitation link' }) },
    resolve: (_r, args, ctx) => acceptInvitation(ctx, args.id, args.token),
  }),
}));

builder.queryFields((t) => ({
  invitation: t.prismaField({
    // the invitee is not a member yet: the link's token (or their own address) is what admits them
    extensions: { ...needs('read'), ...meteredAsPlatform },
    type: Invitation,
    description: 'An invitation as its link opens it, in any state (signed-in person only): with the `token` of the link, or without one when your address is the one invited.',
    args: { id: t.arg.string({ required: true }), token: t.arg.string({ description: 'The `token` of the invitation link' }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.invitation.findUniqueOrThrow({ ...query, where: { id: (await invitationForPerson(ctx, args.id, args.token)).id } }),
  }),
}));
