import type { IForm } from '../entities/form.ts';
import { LockingRepository } from './locking-repository.ts';

export class FormRepository extends LockingRepository<IForm> {}
