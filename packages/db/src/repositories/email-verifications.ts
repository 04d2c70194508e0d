import type { IEmailVerification } from '../entities/email-verification.ts';
import { LockingRepository } from './locking-repository.ts';

export class EmailVerificationRepository extends LockingRepository<IEmailVerification> {}
