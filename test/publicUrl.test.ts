// IDS_PUBLIC_URL's default names an address of this service that answers: derived from HOST, the
// loopback address for a wildcard bind, never `localhost` (which may resolve to ::1 while the
// server listens on 127.0.0.1 only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { call, startTestService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const publicUrlFor = (env: NodeJS.ProcessEnv) => loadConfig({ ...env, IDS_PUBLIC_URL: undefined }).publicUrl;

describe('the default public URL', () => {
  it('is derived from HOST: loopback for 127.0.0.1 and 0.0.0.0, the host itself otherwise', () => {
    expect(publicUrlFor({ PORT: '4000' })).toBe('http://127.0.0.1:4000');
    expect(publicUrlFor({ PORT: '4000', HOST: '127.0.0.1' })).toBe('http://127.0.0.1:4000');
    expect(publicUrlFor({ PORT: '4000', HOST: '0.0.0.0' })).toBe('http://127.0.0.1:4000');
    expect(publicUrlFor({ PORT: '4000', HOST: '::' })).toBe('http://[::1]:4000');
    expect(publicUrlFor({ PORT: '4000', HOST: '::1' })).toBe('http://[::1]:4000');
    expect(publicUrlFor({ PORT: '4000', HOST: '10.1.2.3' })).toBe('http://10.1.2.3:4000');
    expect(publicUrlFor({ PORT: '4000', IDS_PUBLIC_URL: 'https://api.example.com/' })).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ PORT: '4000', IDS_PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe('https://api.example.com');
  });

  it('answers, for the HOST the server binds by default and for 0.0.0.0', async () => {
    const port = new URL(t.url).port; // the test service listens on 127.0.0.1
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const url = publicUrlFor({ PORT: port, HOST: host });
      const answer = await fetch(`${url}/.well-known/oauth-protected-resource`);
      expect(answer.status, url).toBe(200);
    }
  });

  it('is the resource the OAuth protected-resource metadata advertises', async () => {
    const resource = await call(t, 'GET', '/.well-known/oauth-protected-resource');
    expect(resource.status).toBe(200);
    expect(resource.body.resource).toBe(t.service.services.config.publicUrl);
    expect(new URL(resource.body.resource).hostname).toBe('127.0.0.1');
  });
});
