// MCP sessions are optional. The id the server hands out at initialize is signed, not stored,
// so any instance can check it: it names the organization and the negotiated protocol version.
import { createHmac, timingSafeEqual } from 'node:crypto';

const sessionHours = 24;

export interface McpSession {
  orgId: string;
  protocolVersion: string;
}

export function sessionSigner(secret: string) {
  const sign = (payload: string) => createHmac('sha256', secret).update(`mcp-session:${payload}`).digest('base64url');
  return {
    issue(session: McpSession): string {
      const payload = Buffer.from(JSON.stringify({ ...session, expires: Date.now() + sessionHours * 3_600_000 })).toString('base64url');
      return `mcp_${payload}.${sign(payload)}`;
    },
    /** the session, or null when the id is not one we issued or it has expired */
    check(id: string): McpSession | null {
      const match = /^mcp_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(id);
      if (!match) return null;
      const [, payload, signature] = match;
      const expected = Buffer.from(sign(payload!));
      const given = Buffer.from(signature!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      const session = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as McpSession & { expires: number };
      return session.expires > Date.now() ? { orgId: session.orgId, protocolVersion: session.protocolVersion } : null;
    },
  };
}
