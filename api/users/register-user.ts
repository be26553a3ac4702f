import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { RequestedLocale } from '../../shared/platform/validation/locale-tag.js';
import { registerUser } from '../../shared/members/register-member.js';
import { User } from '../../shared/users/user.entity.js';
import { memberView, registeredMemberView } from '../../shared/members/member-views.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { RegisterUserBody, USER_EXAMPLE, UserResource } from './schema.js';

export function registerRegisterUser(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/users',
    operationId: 'registerUser',
    description:
      "Registers a member. With a user token the member registers itself and its `authIdentifier` is the token's `sub`; with an `admin:users` token any member may be registered. The profile is checked against the tenant's profile rules (400 BadRequestError naming the field); an `authIdentifier` already registered is 409 ConflictError, and an email address or telephone number another member has is 422 UserExistsError when the tenant disallows duplicates. `consentsDefinition` records the member's answer to each consent type, with its text in the `locale` asked for (else the type's default locale): a required type not given, an unknown type or one answered twice is 400 BadRequestError, and a `version` that is no longer the type's is 409. `referralInviteCode` with `referralActivity` registers a member invited by another: an unknown or inactive code, or the member's own, is 400 BadRequestError, and the same `source` and `sourceUserId` again with that code is 409 ConflictError; the referral reports REFERRED_REGISTRATION and REFERRAL_COMPLETED. Nothing is registered when any of these fails. The member gets an `accountNumber`, increasing within the tenant.",
    examples: {
      request: { isRestricted: false, authIdentifier: 'member-17', profile: USER_EXAMPLE.profile },
      response: USER_EXAMPLE,
    },
    summary: 'Register a member: a user token registers itself, an admin anyone',
    tags: ['Users'],
    access: { admin: 'admin:users', user: true },
    query: Type.Object({
      locale: Type.Optional(
        RequestedLocale(
          "The member's active locale: the consents' text is stored in it. `_` is read as `-`; a value that is no language tag is kept as asked and each type's default locale is used",
        ),
      ),
    }),
    // A replay answers the member registered under the reserved id, with the details a first answer shows.
    idempotency: createsRecord(async (c, id) => {
      const em = entityManager(c);
      const user = await em.findOne(User, { tenant: c.var.tenant.id, id });
      return user ? success(c, await memberView(em, user), 201) : undefined;
    }),
    body: RegisterUserBody,
    bodyOptions: { failAs: 'BadRequestError' },
    responses: { 201: { description: 'registered', data: UserResource } },
    errors: [409, 422],
    handler: async ({ body, query }, c) =>
      registeredMemberView(
        entityManager(c),
        await registerUser(
          context,
          entityManager(c),
          changedBy(c),
          c.var.principal!,
          { ...body, locale: query.locale },
          c.var.reservedId,
        ),
      ),
  });
}
