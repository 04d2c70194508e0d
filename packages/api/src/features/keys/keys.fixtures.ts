/** What the keys files share: a key tried on a request, and the key procedures called as an owner. */
import { newId } from '@lfk/db';
import { expect } from 'vitest';
import type { Services } from '../../context.ts';
import type { RouterInputs } from '../../root.ts';
import type { Owner } from '../../../test/support/keys.ts';
import { refusal } from '../../../test/support/refusals.ts';
import { callerFor } from '../../../test/world.ts';

/** A well-shaped form id that names no form: a good key gets 404 form_not_found, a refused one 401 invalid_api_key. */
export const PROBE = newId('form');

/** Reads the form `PROBE` with `key`: the key is authenticated as any request's would be (the key cache included). */
export const probe = async (services: Services, key: string) => refusal((await callerFor(services, key)).forms.get({ form_id: PROBE }));

export async function expectKeyWorks(services: Services, key: string): Promise<void> {
  expect(await probe(services, key)).toEqual({ status: 404, code: 'form_not_found' });
}

export async function expectKeyRefused(services: Services, key: string): Promise<void> {
  expect(await probe(services, key)).toEqual({ status: 401, code: 'invalid_api_key' });
}

const asOwner = (services: Services, owner: Owner) => callerFor(services, owner.token);

export const getKey = async (services: Services, owner: Owner, keyId: string) =>
  (await asOwner(services, owner)).apiKeys.get({ workspace_id: owner.workspaceId, key_id: keyId });

export const revokeKey = async (services: Services, owner: Owner, keyId: string) =>
  (await asOwner(services, owner)).apiKeys.revoke({ workspace_id: owner.workspaceId, key_id: keyId });

/** `apiKeys.update` with `body` as sent, well-formed or not. */
export const updateKey = async (services: Services, owner: Owner, keyId: string, body: Record<string, unknown>) =>
  (await asOwner(services, owner)).apiKeys.update({ workspace_id: owner.workspaceId, key_id: keyId, ...body } as RouterInputs['apiKeys']['update']);

/** `apiKeys.roll` with `body` as sent, well-formed or not. */
export const roll = async (services: Services, owner: Owner, keyId: string, body: Record<string, unknown> = {}) =>
  (await asOwner(services, owner)).apiKeys.roll({ workspace_id: owner.workspaceId, key_id: keyId, ...body } as RouterInputs['apiKeys']['roll']);
