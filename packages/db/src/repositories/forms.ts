import type { IForm } from '../entities/form.ts';
import { LockingRepository } from './locking-repository.ts';

export class FormRepository extends LockingRepository<IForm> {
  /** A form in a workspace; unclaimed forms are reached only through their claim token. */
  findClaimed(formId: string): Promise<IForm | null> {
    return this.findOne({ id: formId, state: 'claimed' });
  }
}
