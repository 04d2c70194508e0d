/** What the benchmark runner and its server process say to each other over the IPC channel. */
export type ToServer =
  | { type: 'principal'; keyId: string; workspaceId: string }
  | { type: 'queries' };

export type FromServer = { type: 'ready'; url: string } | { type: 'queries'; count: number };
