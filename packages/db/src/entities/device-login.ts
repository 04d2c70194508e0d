import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { DEVICE_LOGIN_STATES, TEXT_LIMITS } from '../constants.ts';
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
  },
});
export type IDeviceLogin = InferEntity<typeof DeviceLogin>;
