// Which ways to sign in this deployment offers, so that the dashboard's sign-in page shows only
// those that work: an emailed code when email is configured, a one-time link from the operator
// CLI always, and "Continue with …" when an OpenID provider is configured.
import { z } from 'zod';
import { oidcProvider, oidcStartPath, providerDisplayName } from '../../resolvers/accounts/oidc.ts';
import { handlerRoute } from '../route.ts';

const signInLinkCommand = 'npm run ids -- sign-in-link --email <email>';

const method = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('email_code'),
    label: z.string(),
    request: z.string().describe('The call that emails a code'),
    verify: z.string().describe('The call that signs in with it'),
  }),
  z.object({
    method: z.literal('link'),
    label: z.string(),
    command: z.string().describe('The operator command that prints a link'),
    verify: z.string().describe('The call that signs in with its token'),
  }),
  z.object({
    method: z.literal('oidc'),
    label: z.string().describe('"Continue with …", the provider\'s name'),
    provider: z.object({ name: z.string(), issuer: z.string() }),
    start: z.string().describe('Send the browser here (GET) to sign in; it takes `remember_me` and `return_to`'),
  }),
]);

export const authProviderRoutes = [
  handlerRoute({
    name: 'auth_providers_get',
    method: 'GET',
    path: '/v1/auth/providers',
    summary: 'The ways to sign in to this deployment',
    description: `\`email_code\` when email delivery is configured (IDS_SMTP_URL); \`link\` always (the operator prints one with \`${signInLinkCommand}\`); \`oidc\` when an OpenID provider is configured (IDS_AUTH_ISSUER with IDS_AUTH_CLIENT_ID), with its name and issuer and where to send the browser.`,
    tag: 'Auth',
    access: 'public',
    meter: null,
    response: z.object({ object: z.literal('auth_providers'), methods: z.array(method), requestId: z.string() }),
    run: async (ctx) => {
      const methods: z.input<typeof method>[] = [];
      if (ctx.config.email.smtpUrl) methods.push({ method: 'email_code', label: 'Email me a sign-in code', request: 'POST /v1/auth/email-code', verify: 'POST /v1/auth/email-code/verify' });
      methods.push({ method: 'link', label: 'Sign in with a one-time link from the operator', command: signInLinkCommand, verify: 'POST /v1/auth/link/verify' });
      const provider = oidcProvider(ctx.config);
      if (provider) {
        const name = providerDisplayName(provider);
        methods.push({ method: 'oidc', label: `Continue with ${name}`, provider: { name, issuer: provider.issuer }, start: oidcStartPath });
      }
      return { object: 'auth_providers' as const, methods, requestId: ctx.requestId };
    },
  }),
];
