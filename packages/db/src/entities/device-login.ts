import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { DEVICE_LOGIN_STATES, TEXT_LIMITS } from '@lfk/vocabulary';
import { DeviceLoginRepository } from '../repositories/device-logins.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/**
 * A sign-in asked for by another device (the CLI's `login --web`) and approved in the dashboard.
 * The device holds the secret device code (only its sha256 is kept); the person types or follows
 * the short user code, which is worth nothing without a signed-in approval.
 */
export const DeviceLogin = defineEntity({
  name: 'DeviceLogin',
  tableName: 'device_logins',
  extends: BaseEntity,
  repository: () => DeviceLoginRepository,
  properties: {
    deviceCodeHash: p.string().length(64).unique(),
    userCode: p.string().length(8).unique(),
    deviceName: p.string().length(TEXT_LIMITS.deviceName),
    state: p.enum(DEVICE_LOGIN_STATES).default('pending'),
    user: () => p.manyToOne(User).nullable(),
    expiresAt: p.datetime(),
    lastPolledAt: p.datetime().nullable(),
    /**
     * When the session that approved it last proved its person (signed in or reauthenticated): the
     * device's session starts from there, so approving a device never refreshes sudo mode.
     */
    approverAuthenticatedAt: p.datetime().nullable(),
    /** Where the request came from, shown on the approval page and in the audit log: a request sent as a link shows a stranger's address. */
    requestedIp: p.string().length(TEXT_LIMITS.ipAddress).nullable(),
    requestedUserAgent: p.string().length(TEXT_LIMITS.userAgent).nullable(),
  },
});
export type IDeviceLogin = InferEntity<typeof DeviceLogin>;
