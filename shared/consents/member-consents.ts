import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  validationIssue,
  ValidationError,
  type ValidationIssue,
} from '../platform/errors/app-errors.js';
import { usableLocale } from '../platform/validation/locale-tag.js';
import type { User } from '../users/user.entity.js';
import { chooseDescription } from './choose-description.js';
import { ConsentType } from './consent-type.entity.js';
import { MemberConsent } from './member-consent.entity.js';
import { currentConsents } from './read-member-consents.js';

/**
 * A member's answer to one consent type: `[{type: {id}, checked}]` at registration and on PATCH,
 * with the `version` of the text the member was shown when the client says which.
 */
export interface ConsentChoice {
  type: { id: string };
  checked: boolean;
  version?: number;
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
  const types = await typesChosen(tx, member.tenant.id, choices, 'consentsDefinition', {
    required: true,
    invalid: (message, errors) => new BadRequestError(message, { data: { errors } }),
  });
  const notGiven = [...types.values()]
    .filter((type) => type.required && !choices.some((choice) => idOf(choice) === type.id && choice.checked))
    .toSorted((a, b) => a.name.localeCompare(b.name));
  if (notGiven.length) {
    const issues = notGiven.map((type) =>
      validationIssue(
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
 * The member's row is locked, so the member's own concurrent changes are made one after another,
 * and read again under the lock: an erased member (one erased while this waited for the lock
 * included) is gone, and must not store personal text again.
 */
export async function changeConsents(
  em: EntityManager,
  member: User,
  choices: ConsentChoice[],
  locale: string | undefined,
): Promise<void> {
  const tenantId = member.tenant.id;
  await em.transactional(async (tx) => {
    const [locked] = await tx.execute<{ erased_at: Date | null }[]>(
      'select erased_at from member where tenant_id = ? and id = ? for no key update',
      [tenantId, member.id],
    );
    if (!locked || locked.erased_at) throw new NotFoundError('This member was erased: it has no consents to change');
    const types = await typesChosen(tx, tenantId, choices, '', {
      invalid: (message, errors) => new ValidationError(message, errors),
    });
    const current = (await currentConsents(tx, tenantId, [member.id])).get(member.id) ?? [];
    const changed = choices.filter((choice) => {
      const now = current.find((consent) => consent.type.id === idOf(choice));
      return !now || now.checked !== choice.checked || now.version !== types.get(idOf(choice))!.version;
    });
    append(tx, member, changed, types, locale);
    await tx.flush();
  });
}

/**
 * The consent types the choices name, by id, after checking each names one of the tenant's types,
 * once (else `invalid`: registration's 400 is a BadRequestError, decisions §12, and PATCH's a
 * ValidationError); with `required`, the tenant's required types too. Another tenant's type is
 * unknown here. A choice with a `version` that is no longer the type's is 409: the member was shown
 * an older text.
 */
async function typesChosen(
  tx: EntityManager,
  tenantId: string,
  choices: ConsentChoice[],
  field: string,
  options: { required?: true; invalid: (message: string, errors: ValidationIssue[]) => Error },
): Promise<Map<string, ConsentType>> {
  const ids = choices.map(idOf);
  const found = await tx.find(ConsentType, {
    tenant: tenantId,
    $or: [{ id: { $in: ids.filter(isUuid) } }, ...(options.required ? [{ required: true }] : [])],
  });
  const types = new Map(found.map((type) => [type.id, type]));
  const issues = choices.flatMap((choice, index) => {
    const id = idOf(choice);
    const property = [field, index, 'type', 'id'].filter((part) => part !== '').join('.');
    const given = choice.type.id;
    if (!types.has(id))
      return [validationIssue(property, given, 'exists', `no consent type "${given}" in this tenant`)];
    if (ids.indexOf(id) !== index)
      return [
        validationIssue(
          property,
          given,
          'unique',
          `the consent type "${given}" is answered twice: answer each type once`,
        ),
      ];
    return [];
  });
  if (issues.length) throw options.invalid(`Invalid consents: ${issues.map(messageOf).join('; ')}`, issues);
  checkVersions(choices, types);
  return types;
}

/** docs/consents.md#versions: a choice answers the version it names, which must be the current one. */
function checkVersions(choices: ConsentChoice[], types: Map<string, ConsentType>): void {
  const stale = choices.find(
    (choice) => choice.version !== undefined && choice.version !== types.get(idOf(choice))!.version,
  );
  if (!stale) return;
  const type = types.get(idOf(stale))!;
  throw new ConflictError(
    `The consent type "${type.name}" (${type.id}) is at version ${type.version}, not ${stale.version}: show its current text and ask again`,
    { data: { type: { id: type.id, name: type.name }, version: type.version } },
  );
}

/** A choice's type id as stored: uuids are compared without regard to case, as PostgreSQL does. */
function idOf(choice: ConsentChoice): string {
  return choice.type.id.toLowerCase();
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
  // An empty `?locale=` asks for no locale.
  const asked = requestedLocale || undefined;
  for (const choice of choices) {
    const type = types.get(idOf(choice))!;
    const { locale, description } = chooseDescription(type.descriptions, type.defaultLocale, usableLocale(asked));
    tx.create(MemberConsent, {
      tenant: member.tenant.id,
      member: member.id,
      consentType: type,
      version: type.version,
      locale,
      requestedLocale: asked ?? null,
      description,
      checked: choice.checked,
      givenAt,
    });
  }
}

function messageOf(item: ValidationIssue): string {
  return Object.values(item.constraints).join(', ');
}
