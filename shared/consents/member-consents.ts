import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { BadRequestError, type ValidationIssue } from '../platform/errors/app-errors.js';
import type { User } from '../users/user.entity.js';
import { chooseDescription } from './choose-description.js';
import { ConsentType } from './consent-type.entity.js';
import { MemberConsent } from './member-consent.entity.js';
import { currentConsents } from './read-member-consents.js';

/** A member's answer to one consent type: `[{type: {id}, checked}]` at registration and on PATCH. */
export interface ConsentChoice {
  type: { id: string };
  checked: boolean;
}

/** What a registration says of consents: `consentsDefinition`, and the `?locale=` of its text. */
export interface RegistrationConsents {
  consentsDefinition?: ConsentChoice[];
  locale?: string;
}

/**
 * Stores the consents a member registers with, in the registration's transaction
 * (docs/consents.md#registration): a required type not given (left out, or unchecked) is 400
 * BadRequestError naming it, and the member is not registered.
 */
export async function recordRegistrationConsents(
  tx: EntityManager,
  member: User,
  registration: RegistrationConsents,
): Promise<void> {
  const choices = registration.consentsDefinition ?? [];
  const types = await typesChosen(tx, member.tenant.id, choices, 'consentsDefinition', { required: true });
  const notGiven = [...types.values()]
    .filter((type) => type.required && !choices.some((choice) => choice.type.id === type.id && choice.checked))
    .toSorted((a, b) => a.name.localeCompare(b.name));
  if (notGiven.length) {
    const issues = notGiven.map((type) =>
      issue(
        'consentsDefinition',
        undefined,
        'required',
        `the consent type "${type.name}" (${type.id}) is required: give it with checked true`,
      ),
    );
    throw new BadRequestError(`Required consents not given: ${issues.map(messageOf).join('; ')}`, {
      data: { errors: issues },
    });
  }
  append(tx, member, choices, types, registration.locale);
  await tx.flush();
}

/**
 * A member gives or withdraws consents (docs/consents.md#a-members-consents). Each change is
 * appended; an answer equal to the current one for the type's current version appends nothing.
 * The member's row is locked, so the member's own concurrent changes are made one after another.
 */
export async function changeConsents(
  em: EntityManager,
  member: User,
  choices: ConsentChoice[],
  locale: string | undefined,
): Promise<void> {
  const tenantId = member.tenant.id;
  await em.transactional(async (tx) => {
    await tx.execute('select 1 from member where tenant_id = ? and id = ? for no key update', [tenantId, member.id]);
    const types = await typesChosen(tx, tenantId, choices, '');
    const current = (await currentConsents(tx, tenantId, [member.id])).get(member.id) ?? [];
    const changed = choices.filter((choice) => {
      const now = current.find((consent) => consent.type.id === choice.type.id);
      return !now || now.checked !== choice.checked || now.version !== types.get(choice.type.id)!.version;
    });
    append(tx, member, changed, types, locale);
    await tx.flush();
  });
}

/**
 * The consent types the choices name, by id, after checking each names one of the tenant's types,
 * once; with `required`, the tenant's required types too. Another tenant's type is unknown here.
 */
async function typesChosen(
  tx: EntityManager,
  tenantId: string,
  choices: ConsentChoice[],
  field: string,
  also: { required?: true } = {},
): Promise<Map<string, ConsentType>> {
  const ids = choices.map((choice) => choice.type.id);
  const found = await tx.find(ConsentType, {
    tenant: tenantId,
    $or: [{ id: { $in: ids.filter(isUuid) } }, ...(also.required ? [{ required: true }] : [])],
  });
  const types = new Map(found.map((type) => [type.id, type]));
  const issues = ids.flatMap((id, index) => {
    const property = [field, index, 'type', 'id'].filter((part) => part !== '').join('.');
    if (!types.has(id)) return [issue(property, id, 'exists', `no consent type "${id}" in this tenant`)];
    if (ids.indexOf(id) !== index)
      return [issue(property, id, 'unique', `the consent type "${id}" is answered twice: answer each type once`)];
    return [];
  });
  if (issues.length)
    throw new BadRequestError(`Invalid consents: ${issues.map(messageOf).join('; ')}`, { data: { errors: issues } });
  return types;
}

/** One row per choice, with the type's current version and its text in the locale asked for. */
function append(
  tx: EntityManager,
  member: User,
  choices: ConsentChoice[],
  types: Map<string, ConsentType>,
  requestedLocale: string | undefined,
): void {
  const givenAt = new Date();
  for (const choice of choices) {
    const type = types.get(choice.type.id)!;
    const { locale, description } = chooseDescription(type.descriptions, type.defaultLocale, requestedLocale);
    tx.create(MemberConsent, {
      tenant: member.tenant.id,
      member: member.id,
      consentType: type,
      version: type.version,
      locale,
      requestedLocale: requestedLocale ?? null,
      description,
      checked: choice.checked,
      givenAt,
    });
  }
}

function issue(property: string, value: unknown, rule: string, message: string): ValidationIssue {
  return { property, value, constraints: { [rule]: message }, children: [] };
}

function messageOf(item: ValidationIssue): string {
  return Object.values(item.constraints).join(', ');
}
