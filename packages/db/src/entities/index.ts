import { ApiKey } from './api-key.ts';
import { AuditEvent } from './audit-event.ts';
import { Form } from './form.ts';
import { Membership } from './membership.ts';
import { Project } from './project.ts';
import { Session } from './session.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

export * from './api-key.ts';
export * from './audit-event.ts';
export * from './form.ts';
export * from './membership.ts';
export * from './project.ts';
export * from './session.ts';
export * from './user.ts';
export * from './workspace.ts';

/** Listed explicitly: no glob discovery under ESM. */
export const entities = [User, Session, Workspace, Membership, Project, ApiKey, Form, AuditEvent];
