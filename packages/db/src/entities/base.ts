import { defineEntity, p } from '@mikro-orm/core';

/** What every lfk record has: a prefixed id (see ids.ts) and when it was made. */
export const BaseEntity = defineEntity({
  name: 'BaseEntity',
  abstract: true,
  properties: {
    id: p.string().primary().length(40),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A record that is changed after it is made, and says when it last was. */
export const UpdatableEntity = defineEntity({
  name: 'UpdatableEntity',
  abstract: true,
  extends: BaseEntity,
  properties: {
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
