import type { AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Services } from './context.ts';
import type { FileResources } from './features/files/services.ts';
import type { BackgroundTask } from './infrastructure/background-task.ts';
import type { Log } from './log.ts';
import type { SettingsSlice } from './settings/settings-slice.ts';

/** What a feature's services and background tasks are built from. */
export interface Wiring {
  /** The kernel's services, and those of every feature before this one in FEATURES (features.ts). */
  services: Services;
  log: Log;
  /** `LFK_SECRET_KEY` (or the data directory's): what signs and seals. */
  secretKey: Buffer;
  /** Files' storage, scanner and spool, opened by the caller. */
  files: FileResources;
}

/**
 * One feature of lfk, whole: its procedures (under `name` in the root router), what it reads
 * from the environment, the services it adds, and its background tasks. The root router, the
 * services, the task list and the environment schema are folds over FEATURES (features.ts).
 */
export interface Feature<Name extends string = string, Router extends AnyRouter = AnyRouter, Settings extends object = object> {
  name: Name;
  router: Router;
  // biome-ignore lint/suspicious/noExplicitAny: a slice's variables are its own
  settings?: SettingsSlice<any, Settings>;
  /** Its members of `Services` (declared in its services.ts). */
  services?(wiring: Wiring, settings: Settings): Partial<Services>;
  /** Its background tasks, in the order they start (they stop in reverse). */
  tasks?(wiring: Wiring, settings: Settings): BackgroundTask[];
}

export function defineFeature<const Name extends string, Router extends AnyRouter, Env extends z.ZodRawShape = z.ZodRawShape, Settings extends object = object>(
  feature: Omit<Feature<Name, Router, Settings>, 'settings'> & { settings?: SettingsSlice<Env, Settings> },
): Feature<Name, Router, Settings> {
  return feature as Feature<Name, Router, Settings>;
}
