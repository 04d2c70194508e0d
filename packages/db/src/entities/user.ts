import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '../constants.ts';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().primary().length(40),
    email: p.string().length(TEXT_LIMITS.email).unique(),
    name: p.string().length(TEXT_LIMITS.userName).nullable(),
    passwordHash: p.text().hidden().lazy(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
