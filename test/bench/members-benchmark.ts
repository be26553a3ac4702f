import type { BenchWorld } from './bench-world.js';
import { CEILING_PATH } from './bench-world.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import { fireLoad, type LoadFigures } from './http-load.js';

/** Admins registering members at once, each request a new member. */
export const REGISTERING_CONNECTIONS = 10;
/** Referrers whose invite codes the referred registrations take in turn. */
const REFERRERS = 50;

export interface MembersFigures {
  ceiling: LoadFigures[];
  plain: LoadFigures[];
  withConsents: LoadFigures[];
  referred: LoadFigures[];
}

/**
 * POST /v1/users (issue 23) on the API process alone, as fast as the server answers: plain
 * registrations, then each with two consents (their text chosen for `?locale=`), then each
 * referred by one of REFERRERS members' invite codes (the referral stored in the registration's
 * transaction, its two events queued after), beside the bare ceiling route of the same moment.
 * All in one tenant, whose registrations go on side by side (only those claiming the same
 * authIdentifier or contact take turns). The consent types are optional and the campaign is left
 * active: run it after the other sections.
 */
export async function benchmarkMembers(
  world: BenchWorld,
  port: number,
  options: { rounds: number; seconds: number },
): Promise<MembersFigures> {
  const { seconds } = options;
  const admin = await world.adminToken(['admin:users']);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  const register = (run: string, extra: (n: number) => Record<string, unknown>, query = '') =>
    fireLoad({
      url: `http://127.0.0.1:${port}/v1/users${query}`,
      headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${admin}` },
      body: (n) => ({
        isRestricted: false,
        authIdentifier: `${run}-${n}`,
        profile: { givenName: 'Bench', familyName: run, emailAddress: `${run}-${n}@bench.example` },
        ...extra(n),
      }),
      connections: REGISTERING_CONNECTIONS,
      durationSeconds: seconds,
    });

  const consentTypes = await Promise.all(
    ['Newsletter', 'Partners'].map(async (name) =>
      call('POST', '/v1/consent_types', {
        name: `Bench ${name}`,
        required: false,
        defaultLocale: 'en',
        descriptions: { en: `${name}: yes, please.`, fr: `${name} : oui, merci.`, de: `${name}: ja, gerne.` },
      }),
    ),
  );
  await call('POST', '/v1/referral_campaigns', {
    name: 'Bench friends',
    isActive: true,
    referralCodeType: 'CODE',
    linkConfig: { title: 'Join', description: 'Join us', desktopUrl: 'https://bench.example/join' },
    tranches: [{ referrals: 5, name: 'five' }],
  });
  const codes: string[] = [];
  for (const member of world.members.slice(0, REFERRERS))
    codes.push((await call('GET', `/v1/users/${member.id}/referral_code`)).inviteCode as string);

  // Warm-up: JIT, connection pools, the statements' plans.
  await register('members-warm-up', () => ({}));
  const figures: MembersFigures = { ceiling: [], plain: [], withConsents: [], referred: [] };
  for (let round = 0; round < options.rounds; round++) {
    await world.upkeep();
    figures.ceiling.push(await fireIngestLoad(world, port, CEILING_PATH, `members-ceiling-${round}`, seconds));
    figures.plain.push(await register(`plain-${round}`, () => ({})));
    figures.withConsents.push(
      await register(
        `consenting-${round}`,
        () => ({ consentsDefinition: consentTypes.map((type) => ({ type: { id: type.id }, checked: true })) }),
        '?locale=fr-FR',
      ),
    );
    figures.referred.push(
      await register(`referred-${round}`, (n) => ({
        referralInviteCode: codes[n % codes.length],
        referralActivity: {
          source: 'EMAIL',
          sourceUserId: `referred-${round}-${n}@bench.example`,
          activityType: 'REGISTER',
        },
      })),
    );
  }
  for (const [name, runs] of Object.entries(figures))
    if (runs.some((run: LoadFigures) => run.errors || (name !== 'ceiling' && run.refused)))
      throw new Error(`${name} requests failed or were refused`);
  return figures;
}
