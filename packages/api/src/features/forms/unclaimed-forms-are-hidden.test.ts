/**
 * Unclaimed forms are invisible to keys and sessions: they have no workspace, so every form
 * procedure answers as for a form that does not exist.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { sql } from '../../../test/support/database.ts';
import { createAnonymous, formRow } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

describe('unclaimed forms are not found by keys or members', () => {
  it('a key gets 404 form_not_found on GET, PATCH, resend-verification and submissions', async () => {
    const form = await createAnonymous(services);
    const { key } = await createKey(services, await person(services));
    const asKey = await callerFor(services, key);

    await expectRefused(asKey.forms.get({ form_id: form.id }), 404, 'form_not_found');
    await expectRefused(asKey.forms.update({ form_id: form.id, name: 'Hijacked' }), 404, 'form_not_found');
    await expectRefused(asKey.forms.resendVerification({ form_id: form.id }), 404, 'form_not_found');
    await expectRefused(asKey.submissions.create({ form_id: form.id, data: { email: 'a@example.com' } }), 404, 'form_not_found');
    const row = await formRow(services, form.id);
    expect(row.name).toBe(form.name);
    expect(row.state).toBe('unclaimed');
    expect(await sql(services, 'select id from submissions where form_id = ?', [form.id])).toHaveLength(0);
  });

  it('a member session gets 404 form_not_found too: the form has no workspace', async () => {
    const form = await createAnonymous(services);
    const member = await person(services);
    const asMember = await callerFor(services, member.token);
    await expectRefused(asMember.forms.get({ form_id: form.id }), 404, 'form_not_found');
    await expectRefused(asMember.forms.update({ form_id: form.id, name: 'Hijacked' }), 404, 'form_not_found');
    await expectRefused(asMember.forms.resendVerification({ form_id: form.id }), 404, 'form_not_found');
    await expectRefused(asMember.submissions.list({ form_id: form.id }), 404, 'form_not_found');
    expect((await formRow(services, form.id)).name).toBe(form.name);
  });
});
