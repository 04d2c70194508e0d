import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Home, type LfkServerUnderTest, signupWithCli, startServer, tempHome } from './harness.ts';

let server: LfkServerUnderTest;
let home: Home;
beforeAll(async () => {
  server = await startServer();
  home = await tempHome({ LFK_BASE_URL: '' });
});
afterAll(async () => {
  await server?.close();
  await home?.remove();
});

it('signs up and lists keys', async () => {
  const { workspaceId } = await signupWithCli(home, server.baseUrl);
  const created = await home.lfk(['keys', 'create', '--name', 'ci', '--json']);
  expect(created.code).toBe(0);
  expect(created.json.workspace_id).toBe(workspaceId);
  const list = await home.lfk(['keys', 'list', '--json']);
  expect(list.json.data.map((k: { id: string }) => k.id)).toEqual([created.json.id]);
});
