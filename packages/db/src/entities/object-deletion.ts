import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ObjectDeletionRepository } from '../repositories/object-deletions.ts';

/**
 * A stored object to delete from object storage once `deleteAfter` has passed, unless its row is
 * gone by then. An upload writes one before it stores a file and its submission's transaction
 * removes it: an upload that never commits (refused, cut, crashed) leaves it to the sweep. Deleting
 * a submission's file row writes one due at once. The sweep (`features/files/object-sweep.ts`)
 * deletes the objects and their rows, once across replicas.
 */
export const ObjectDeletion = defineEntity({
  name: 'ObjectDeletion',
  tableName: 'object_deletions',
  repository: () => ObjectDeletionRepository,
  properties: {
    objectKey: p.string().primary().length(64),
    deleteAfter: p.datetime().index(),
  },
});
export type IObjectDeletion = InferEntity<typeof ObjectDeletion>;
