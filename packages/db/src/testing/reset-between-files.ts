// A setup file (testWorld's setupFiles): vitest runs it before each test file, in the worker
// that runs the file, so every file starts on an empty shared database.
import { beforeAll } from 'vitest';
import { resetSharedDatabase } from './database.ts';

beforeAll(() => resetSharedDatabase());
