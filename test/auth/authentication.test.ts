import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, UnsecuredJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../api/app-env.js';
import { handleError, handleNotFound } from '../../api/errors/error-handler.js';
import { apiKey } from '../../api/middleware/api-key.js';
import { FailedKeyAttempts } from '../../shared/platform/rate-limit/failed-key-attempts.js';
import { TokenBuckets } from '../../shared/platform/rate-limit/token-bucket.js';
import { authorize, type Access } from '../../api/middleware/authorize.js';
import { requestContext } from '../../api/middleware/request-context.js';
import { AdminTokenVerifier, mintAdminToken, PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import { JwksCache } from '../../shared/platform/auth/jwks-cache.js';
import { UnauthorizedError } from '../../shared/platform/errors/app-errors.js';
import { createHarness, USER_TOKEN_ISSUER, type Harness, type TestTenant, jsonOf } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let otherTenant: TestTenant;

/** The real middleware chain in front of a route that shows who it let in. */
function probe(access: Access) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use('*', requestContext(harness.context));
  app.use(
    '*',
    apiKey(harness.context, new FailedKeyAttempts(new TokenBuckets(harness.context.redis, harness.config.redisPrefix))),
  );
  app.get('/probe', authorize(harness.context, access), (c) => c.json({ principal: c.var.principal }));
  return (key: string | undefined, token?: string) =>
    app.request('/probe', {
      headers: { ...(key ? { 'X-Api-Key': key } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
}

async function expectUnauthorized(response: Response) {
  expect(response.status).toBe(401);
  expect(await jsonOf(response)).toMatchObject({ status: 'fail', data: { name: 'UnauthorizedError', httpCode: 401 } });
}

beforeAll(async () => {
  harness = await createHarness({ fetchAllowPrivateAddresses: true });
  tenant = await harness.createTenant();
  otherTenant = await harness.createTenant();
});
afterAll(() => harness.close());

// docs/api-conventions.md#authentication: "X-Api-Key names the tenant … Missing or unknown: 403 InvalidApiKeyError."
describe('API keys', () => {
  it('a missing or unknown key is 403 InvalidApiKeyError', async () => {
    for (const key of [null, 'tly_notarealkeyatallnotarealkeyatallxx', 'garbage', `${tenant.key}x`]) {
      const response = await harness.request(tenant, 'GET', '/v1/event_types', { apiKey: key });
      expect(response.status).toBe(403);
      expect(await jsonOf(response)).toMatchObject({
        status: 'fail',
        data: { name: 'InvalidApiKeyError', httpCode: 403 },
      });
    }
  });

  it('keys are prefixed tly_ and stored only as a hash', async () => {
    expect(tenant.key).toMatch(/^tly_[A-Za-z0-9_-]{43}$/);
    const rows = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('select * from tenant where id = ?', [tenant.id]);
    expect(JSON.stringify(rows)).not.toContain(tenant.key);
  });
});

// docs/api-conventions.md#authentication: admin tokens are "bound to one tenant (aud = tenant id) and carrying scope … A token for another tenant is refused."
describe('admin tokens', () => {
  const check = () => probe({ admin: 'read:event_types' });

  it('a token with the scope passes, and admin:X implies read:X', async () => {
    const request = check();
    for (const scope of ['read:event_types', 'admin:event_types'] as const) {
      const response = await request(tenant.key, await harness.adminToken(tenant, [scope], 'ops@example.com'));
      expect(response.status).toBe(200);
      expect(await jsonOf(response)).toEqual({
        principal: { kind: 'admin', subject: 'ops@example.com', scopes: [scope] },
      });
    }
  });

  it("a missing bearer token, a missing scope, or another tenant's token is 401", async () => {
    const request = check();
    await expectUnauthorized(await request(tenant.key));
    await expectUnauthorized(await request(tenant.key, await harness.adminToken(tenant, ['admin:users'])));
    // read:X does not imply admin:X.
    await expectUnauthorized(
      await probe({ admin: 'admin:event_types' })(tenant.key, await harness.adminToken(tenant, ['read:event_types'])),
    );
    await expectUnauthorized(await request(tenant.key, await harness.adminToken(otherTenant, ['admin:event_types'])));
  });

  it('an expired token, a token signed with another secret, or a forged issuer is 401', async () => {
    const request = check();
    const base = { tenantId: tenant.id, scopes: ['admin:event_types'], subject: 'x' };
    const secret = harness.config.platformTokenSecret;
    const expired = await new SignJWT({ scope: 'admin:event_types' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(PLATFORM_TOKEN_ISSUER)
      .setAudience(tenant.id)
      .setSubject('x')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    await expectUnauthorized(await request(tenant.key, expired));
    await expectUnauthorized(await request(tenant.key, await mintAdminToken('another-secret', { ...base, ttl: '5m' })));
    const wrongIssuer = await new SignJWT({ scope: 'admin:event_types' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('someone-else')
      .setAudience(tenant.id)
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    await expectUnauthorized(await request(tenant.key, wrongIssuer));
  });

  it('a token verified once is not trusted past its expiry, nor for another tenant', async () => {
    const verifier = new AdminTokenVerifier(harness.config.platformTokenSecret);
    const token = await mintAdminToken(harness.config.platformTokenSecret, {
      tenantId: tenant.id,
      scopes: ['admin:event_types'],
      subject: 'till-7',
      ttl: '2m',
    });
    expect(await verifier.verify(token, tenant.id)).toMatchObject({ subject: 'till-7', scopes: ['admin:event_types'] });
    await expect(verifier.verify(token, otherTenant.id)).rejects.toThrow(UnauthorizedError);
    // Past its expiry and the 30 s of clock tolerance, the kept verification no longer counts.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 160_000 });
    try {
      await expect(verifier.verify(token, tenant.id)).rejects.toThrow(UnauthorizedError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an unsigned (alg none) admin token is 401', async () => {
    const unsigned = new UnsecuredJWT({ scope: 'admin:event_types' })
      .setIssuer(PLATFORM_TOKEN_ISSUER)
      .setAudience(tenant.id)
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .encode();
    await expectUnauthorized(await check()(tenant.key, unsigned));
  });

  it('an admin token on a user-only route is 401', async () => {
    await expectUnauthorized(
      await probe({ user: true })(tenant.key, await harness.adminToken(tenant, ['admin:users'])),
    );
  });
});

// docs/api-conventions.md#authentication: "sub, iss, iat, exp are mandatory, iss must equal the tenant's issuer, the algorithm must be the tenant's (no none, no HS/RS confusion), 30 s clock tolerance."
describe('end-user tokens with HS256', () => {
  const userRoute = () => probe({ user: true });
  const sign = (claims: { iss?: string; sub?: string; iat?: number; exp?: number }, key = tenant.sharedKey) => {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' });
    if (claims.iss) jwt.setIssuer(claims.iss);
    if (claims.sub) jwt.setSubject(claims.sub);
    if (claims.iat) jwt.setIssuedAt(claims.iat);
    if (claims.exp) jwt.setExpirationTime(claims.exp);
    return jwt.sign(new TextEncoder().encode(key));
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('a valid token passes and its sub is the authIdentifier', async () => {
    const response = await userRoute()(tenant.key, await harness.userToken(tenant, 'user-42'));
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({ principal: { kind: 'user', authIdentifier: 'user-42' } });
  });

  it('30 s of clock tolerance: expired 10 s ago passes, 60 s ago does not', async () => {
    const request = userRoute();
    expect(
      (await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: now() - 100, exp: now() - 10 })))
        .status,
    ).toBe(200);
    await expectUnauthorized(
      await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: now() - 100, exp: now() - 60 })),
    );
  });

  it("a missing sub, iat or exp, a wrong issuer, a wrong key or another tenant's token is 401", async () => {
    const request = userRoute();
    const t = now();
    await expectUnauthorized(await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, iat: t, exp: t + 60 })));
    await expectUnauthorized(await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', exp: t + 60 })));
    await expectUnauthorized(await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: t })));
    await expectUnauthorized(
      await request(tenant.key, await sign({ iss: 'https://evil.example', sub: 'u', iat: t, exp: t + 60 })),
    );
    await expectUnauthorized(
      await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: t, exp: t + 60 }, 'wrong-key')),
    );
    await expectUnauthorized(await request(tenant.key, await harness.userToken(otherTenant, 'u')));
  });

  // Issue 17, low: "A validly signed member token with a numeric sub answers 500 on /users/me,
  // /users/me/wallet, POST /users, POST /events, POST /receipts: refuse non-string sub as 401."
  it('a validly signed token whose sub is not a string is 401 on every route that takes a user token', async () => {
    const t = now();
    const admin = await harness.adminToken(tenant, ['admin:event_types']);
    expect(
      (
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name: 'APP_OPENED', description: 'x', isPrivate: false },
        })
      ).status,
    ).toBe(201);
    for (const subject of [42, true, { id: 'u' }]) {
      const token = await new SignJWT({ sub: subject as unknown as string })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(USER_TOKEN_ISSUER)
        .setIssuedAt(t)
        .setExpirationTime(t + 60)
        .sign(new TextEncoder().encode(tenant.sharedKey));
      for (const [method, path, body] of [
        ['GET', '/v1/users/me', undefined],
        ['GET', '/v1/users/me/wallet', undefined],
        [
          'POST',
          '/v1/users',
          { isRestricted: false, profile: { familyName: 'N', givenName: 'N', emailAddress: 'n@example.com' } },
        ],
        ['POST', '/v1/events', { type: 'APP_OPENED', payload: {} }],
        ['POST', '/v1/receipts', { useParser: true, pictureUrl: 'https://images.example.com/r.png' }],
      ] as const) {
        const response = await harness.request(tenant, method, path, { token, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${path} with sub ${JSON.stringify(subject)}`).toBe(401);
      }
    }
  });

  // Issue 17, low: "A member token with iat a year in the future is accepted: refuse iat beyond the clock tolerance."
  it('a token issued beyond the 30 s tolerance in the future is 401; within it, it passes', async () => {
    const request = userRoute();
    const t = now();
    await expectUnauthorized(
      await request(
        tenant.key,
        await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: t + 365 * 24 * 3600, exp: t + 366 * 24 * 3600 }),
      ),
    );
    await expectUnauthorized(
      await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: t + 120, exp: t + 600 })),
    );
    expect(
      (await request(tenant.key, await sign({ iss: USER_TOKEN_ISSUER, sub: 'u', iat: t + 10, exp: t + 600 }))).status,
    ).toBe(200);
  });

  it('an unsigned (alg none) user token is 401', async () => {
    const unsigned = new UnsecuredJWT({})
      .setIssuer(USER_TOKEN_ISSUER)
      .setSubject('u')
      .setIssuedAt()
      .setExpirationTime('5m')
      .encode();
    await expectUnauthorized(await userRoute()(tenant.key, unsigned));
  });

  it('a user token on an admin-only route is 401', async () => {
    await expectUnauthorized(
      await probe({ admin: 'read:event_types' })(tenant.key, await harness.userToken(tenant, 'u')),
    );
  });
});

describe('end-user tokens with RS256 and a JWKS served over HTTP', () => {
  let server: Server;
  let jwksFetches = 0;
  let rsTenant: TestTenant;
  let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let publicJwk: JWK;
  const issuer = 'https://rs.example.test';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    server = createServer((request, response) => {
      jwksFetches += 1;
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    rsTenant = await harness.createTenant({
      authentication: { algorithm: 'RS256', issuer, jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` },
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const signRs = (kid: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(issuer)
      .setSubject('rs-user')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(signingKey);

  it('a token signed by a key of the JWKS passes; the key set is fetched once and cached', async () => {
    const request = probe({ user: true });
    const before = jwksFetches;
    for (let i = 0; i < 3; i++) {
      const response = await request(rsTenant.key, await signRs('key-1'));
      expect(response.status).toBe(200);
      expect(await jsonOf(response)).toEqual({ principal: { kind: 'user', authIdentifier: 'rs-user' } });
    }
    expect(jwksFetches - before).toBeLessThanOrEqual(1);
  });

  it('an unknown kid is 401 and refetches the JWKS at most once a minute', async () => {
    const request = probe({ user: true });
    await request(rsTenant.key, await signRs('key-1'));
    const before = jwksFetches;
    await expectUnauthorized(await request(rsTenant.key, await signRs('unknown-1')));
    await expectUnauthorized(await request(rsTenant.key, await signRs('unknown-2')));
    await expectUnauthorized(await request(rsTenant.key, await signRs('unknown-3')));
    expect(jwksFetches - before).toBeLessThanOrEqual(1);
  });

  it('a key published after the cooldown is fetched and accepted; before it, the key set is not asked again', async () => {
    const rotated = await generateKeyPair('RS256', { extractable: true });
    const rotatedJwk = { ...(await exportJWK(rotated.publicKey)), kid: 'key-2', alg: 'RS256', use: 'sig' };
    // The key set's clock (jose reads Date) is the test's: the cooldown is the minute of docs/api-conventions.md#authentication as
    // configured, and "before it" and "after it" are the test's to say, not a busy machine's.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const keySet = new JwksCache(true).get(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    );
    const previous = { signingKey, publicJwk };
    try {
      await jwtVerify(await signRs('key-1'), keySet, { issuer });
      signingKey = rotated.privateKey;
      publicJwk = rotatedJwk;
      const before = jwksFetches;
      vi.setSystemTime(now + 60_000 - 1);
      await expect(jwtVerify(await signRs('key-2'), keySet, { issuer })).rejects.toThrow();
      expect(jwksFetches - before).toBe(0);
      vi.setSystemTime(now + 60_000);
      await expect(jwtVerify(await signRs('key-2'), keySet, { issuer })).resolves.toBeDefined();
      expect(jwksFetches - before).toBe(1);
    } finally {
      vi.useRealTimers();
      ({ signingKey, publicJwk } = previous);
    }
  });

  it('HS/RS confusion: an HS256 token keyed with the public key is 401', async () => {
    const publicPem = JSON.stringify(publicJwk);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setIssuer(issuer)
      .setSubject('attacker')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(publicPem));
    await expectUnauthorized(await probe({ user: true })(rsTenant.key, forged));
  });

  it('an HS256 tenant refuses an RS256 token', async () => {
    await expectUnauthorized(await probe({ user: true })(tenant.key, await signRs('key-1')));
  });
});
